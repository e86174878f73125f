import type { z } from 'zod';
import type { Scope } from '../../src/oauth/scopes';
import type { McpCaller } from './caller';

/**
 * An MCP tool as data: what the agent sees (name, description, schemas, hints) and what it runs. `run` calls
 * the same core verb as the REST endpoint, so MCP and REST cannot disagree.
 */
export interface ToolDescriptor<In extends z.ZodObject = z.ZodObject, Out extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  /** 'none': works anonymously; 'api_key': needs Authorization: Bearer <key>. */
  auth: 'none' | 'api_key';
  /** The OAuth scope a token needs for this tool on POST /mcp (docs/mcp-and-search.md "Scopes"). */
  scope: Scope;
  /** Read-only tools are also idempotent; the hints tell the host it may call them freely. */
  readOnly: boolean;
  inputSchema: In;
  outputSchema: Out;
  /** `sent`: the arguments as the agent sent them, before the schema read them (for what the answer tells). */
  run(caller: McpCaller, input: z.output<In>, sent?: unknown): Promise<z.output<Out> | object>;
}

export const defineTool = <In extends z.ZodObject, Out extends z.ZodObject>(tool: ToolDescriptor<In, Out>) =>
  tool as unknown as ToolDescriptor;
