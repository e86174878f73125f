import type { McpTransport } from '../catalog/mcp-states';

// "Add to your client": what a reader pastes into an MCP host to use a listing's remote server (the tool page shows
// them, docs/registry-api.md names the hosts). Plain text: the page escapes it as HTML; here each text is correct in
// its own language (JSON by JSON.stringify, the shell by single quotes), so a URL with quotes, `&` or `$` stays one
// argument and one string.

/** One snippet: which host, where it goes, and the text to paste. */
export interface McpClientSnippet {
  id: string;
  host: string;
  where: string;
  text: string;
}

/** A word as one shell argument: as is when it has nothing the shell reads, else in single quotes. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * The snippets for a server named `name` (a listing's slug: lower-case letters, digits and hyphens) at `url`, reached
 * over `transport` (streamable HTTP when not known yet: what current hosts try first).
 */
export function mcpClientSnippets(name: string, url: string, transport: McpTransport | null): McpClientSnippet[] {
  const sse = transport === 'sse';
  return [
    { id: 'url', host: 'Any MCP client', where: 'the server URL', text: url },
    {
      id: 'claude-code',
      host: 'Claude Code',
      where: 'a terminal',
      text: `claude mcp add --transport ${sse ? 'sse' : 'http'} ${shellWord(name)} ${shellWord(url)}`,
    },
    { id: 'cursor', host: 'Cursor', where: '.cursor/mcp.json', text: json({ mcpServers: { [name]: { url } } }) },
    {
      id: 'vscode',
      host: 'VS Code',
      where: '.vscode/mcp.json',
      text: json({ servers: { [name]: { type: sse ? 'sse' : 'http', url } } }),
    },
    {
      id: 'claude-desktop',
      host: 'Claude Desktop and other hosts that start local servers',
      where: 'claude_desktop_config.json (through the mcp-remote bridge)',
      text: json({ mcpServers: { [name]: { command: 'npx', args: ['-y', 'mcp-remote', url] } } }),
    },
  ];
}
