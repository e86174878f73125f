// What the probe keeps of a server's answers: the server's name and version, and each tool as a short record with
// its texts cut to lengths a page can show and its input schema kept only as its size.

/** One tool as the probe keeps it (the site_mcp.tools element). */
export interface McpProbedTool {
  name: string;
  title: string | null;
  description: string | null;
  input_schema_bytes: number;
}

export interface McpServerInfo {
  name: string | null;
  title: string | null;
  version: string | null;
}

/** Cuts on the texts a server sends (in characters, after whitespace is collapsed). */
export const MCP_TEXT_LIMITS = { name: 128, title: 200, description: 1000, version: 64 } as const;

const encoder = new TextEncoder();

/** Plain text of at most `max` characters (code points), whitespace collapsed; null for a non-string or empty. */
export function cutText(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  // Control characters would reach pages and JSON consumers; a server has no need for them in a tool's text.
  const text = value
    .replace(/[\u0000-\u001f\u007f-\u009f]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
  if (text === '') return null;
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** initialize's serverInfo. */
export function serverInfoOf(result: Record<string, unknown>): McpServerInfo {
  const info = (result.serverInfo ?? {}) as Record<string, unknown>;
  return {
    name: cutText(info.name, MCP_TEXT_LIMITS.name),
    title: cutText(info.title, MCP_TEXT_LIMITS.title),
    version: cutText(info.version, MCP_TEXT_LIMITS.version),
  };
}

/**
 * One listed tool, or null for an entry that is no tool (no string name). The title is the tool's own, else its
 * annotations' title (older servers put it there).
 */
export function toolOf(entry: unknown): McpProbedTool | null {
  if (!entry || typeof entry !== 'object') return null;
  const tool = entry as Record<string, unknown>;
  const name = cutText(tool.name, MCP_TEXT_LIMITS.name);
  if (!name) return null;
  const annotations = tool.annotations && typeof tool.annotations === 'object' ? tool.annotations : {};
  const title =
    cutText(tool.title, MCP_TEXT_LIMITS.title) ??
    cutText((annotations as Record<string, unknown>).title, MCP_TEXT_LIMITS.title);
  return {
    name,
    title,
    description: cutText(tool.description, MCP_TEXT_LIMITS.description),
    input_schema_bytes: tool.inputSchema === undefined ? 0 : encoder.encode(JSON.stringify(tool.inputSchema)).length,
  };
}
