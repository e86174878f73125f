// How a server's tool list changed between two listings: the changelog entry the owner sees (site_mcp_changes).
import type { McpProbedTool } from '../crawler/mcp-probe';

export interface ToolChange {
  added: string[];
  removed: string[];
  /** Tools in both lists whose title or description differs. */
  changed: string[];
}

/** The change from `before` to `after`, by tool name; every list empty when nothing an owner would see changed. */
export function diffTools(before: readonly McpProbedTool[], after: readonly McpProbedTool[]): ToolChange {
  const old = new Map(before.map((tool) => [tool.name, tool]));
  const now = new Set(after.map((tool) => tool.name));
  const added: string[] = [];
  const changed: string[] = [];
  for (const tool of after) {
    const previous = old.get(tool.name);
    if (!previous) added.push(tool.name);
    else if (previous.title !== tool.title || previous.description !== tool.description) changed.push(tool.name);
  }
  const removed = before.filter((tool) => !now.has(tool.name)).map((tool) => tool.name);
  return { added, removed, changed };
}

export const isNoChange = (change: ToolChange) =>
  change.added.length === 0 && change.removed.length === 0 && change.changed.length === 0;
