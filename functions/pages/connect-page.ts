// GET /connect – how to connect an agent (MCP, by URL with OAuth or with an API key) and the CLI
import type { OpenAPIHono } from '@hono/zod-openapi';
import { html } from 'hono/html';
import { mcpTools } from '../mcp/tools';
import type { AppEnv } from '../types';
import { renderPage } from './layout';

export function register(app: OpenAPIHono<AppEnv>) {
  app.get('/connect', (c) => {
    const origin = c.get('deps').origin;
    const byUrl = `${origin}/mcp`;
    const withKey = `${origin}/api/mcp/mcp`;
    const hostConfig = JSON.stringify(
      { mcpServers: { tooldir: { url: withKey, headers: { Authorization: 'Bearer tdk_…' } } } },
      null,
      2,
    );
    c.header('Cache-Control', 'public, max-age=300');
    return renderPage(c, {
      title: 'Connect an agent – tooldir',
      description: 'Use tooldir from an AI assistant through its MCP server, or from the command line.',
      narrow: true,
      body: () => html`<h1>Connect an agent</h1>
<p>tooldir is an <abbr title="Model Context Protocol">MCP</abbr> server: an assistant can search the directory, submit a tool and follow its review, with the same rules as this website.</p>
<h2>By URL (sign in with OAuth)</h2>
<p>Add this address as a remote MCP server in your assistant (Claude, Cursor, VS Code and others). The first call asks you to sign in here and to allow the app; you can disconnect it at any time on your account page.</p>
<pre id="mcp-url">${byUrl}</pre>
<p>For example: <code>claude mcp add --transport http tooldir ${byUrl}</code></p>
<h2>With an API key</h2>
<p>Create a key on <a href="/account/keys">your account's API keys page</a>, then point the host at:</p>
<pre>${hostConfig}</pre>
<h2>Tools</h2>
<dl class="facts">${mcpTools.map((tool) => html`<dt><code>${tool.name}</code></dt><dd>${tool.title}${tool.auth === 'none' ? ' (no sign-in needed)' : ''}</dd>`)}</dl>
<h2>Other ways in</h2>
<ul>
<li>The <a href="/api/v1/docs">REST API reference</a> and its <a href="/api/v1/openapi.json">OpenAPI document</a>.</li>
<li>The <code>tooldir</code> command line: <code>npx tooldir login</code>, then <code>npx tooldir submit https://your.tool --wait</code>.</li>
<li><a href="/llms.txt">llms.txt</a>, a plain-text index for agents.</li>
</ul>`,
    });
  });
}
