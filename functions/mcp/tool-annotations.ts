import type { ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDescriptor } from './define-tool';

/** The hints a host reads: read-only tools are idempotent; no tool destroys or reaches outside the directory. */
export function toolAnnotations(tool: ToolDescriptor): NonNullable<ListToolsResult['tools'][number]['annotations']> {
  return {
    title: tool.title,
    readOnlyHint: tool.readOnly,
    idempotentHint: tool.readOnly,
    destructiveHint: false,
    openWorldHint: false,
  };
}
