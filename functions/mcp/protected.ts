// POST /mcp – the MCP server as an OAuth 2.1 protected resource (RFC 9728, RFC 6750): OAuth access tokens or API keys
import type { Context } from 'hono';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { checkBearer } from '../../src/oauth/bearer';
import { MCP_RESOURCE_PATH, mcpResource, resourceMetadataUrl } from '../../src/oauth/resource';
import { ALL_SCOPES, formatScope, type Scope } from '../../src/oauth/scopes';
import { clientIp } from '../middleware/client-ip';
import { bearerToken, QUERY_KEY_PARAMS } from '../middleware/api-key-auth';
import type { AppEnv } from '../types';
import { createCaller } from './caller';
import { mcpTools } from './tools';
import { jsonRpcError, mcpBodyLimit, mcpHostOnly, serveMcp, withRequestId } from './transport';
import { openCors } from '../middleware/open-cors';

const scopeOfTool = new Map(mcpTools.map((tool) => [tool.name, tool.scope]));

/**
 * What a 401 tells a client to ask for (MCP authorization 2025-11-25, "Scope Selection Strategy": the
 * challenge's scope comes first): every scope, since a host cannot know which tools its model will call,
 * and the consent page shows the person each one.
 */
const SCOPE_TO_ASK = formatScope(ALL_SCOPES);

/**
 * RFC 6750 §3 challenge; resource_metadata (RFC 9728 §5.1) is how an MCP client finds our authorization server.
 * A 401 also names the scopes to ask for; a 403 names the ones the call needs (passed in `fields`).
 */
function challenge(origin: string, fields: Record<string, string> = {}): string {
  const params = {
    resource_metadata: resourceMetadataUrl(origin),
    ...('scope' in fields ? {} : { scope: SCOPE_TO_ASK }),
    ...fields,
  };
  const quoted = Object.entries(params).map(([name, value]) => `${name}="${value.replace(/["\\]/g, '')}"`);
  return `Bearer ${quoted.join(', ')}`;
}

/**
 * The scope a tools/call in this body needs and the token lacks, if any. Read from a clone: the transport
 * parses the same bytes (bounded by the route's BODY_LIMIT_BYTES). Unparsable bodies get the transport's -32700.
 */
async function missingScope(request: Request, granted: readonly Scope[]): Promise<Scope | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await request.clone().text());
  } catch {
    return undefined;
  }
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    const { method, params } = (message ?? {}) as { method?: unknown; params?: { name?: unknown } };
    if (method !== 'tools/call' || typeof params?.name !== 'string') continue;
    const needed = scopeOfTool.get(params.name);
    if (needed && !granted.includes(needed)) return needed;
  }
  return undefined;
}

async function answer(c: Context<AppEnv>): Promise<Response> {
  const deps = c.get('deps');
  const url = new URL(c.req.url);
  if (QUERY_KEY_PARAMS.some((p) => url.searchParams.has(p))) {
    const message = 'Credentials are accepted only in the Authorization header, never in the URL.';
    return jsonRpcError(401, -32001, message, {
      'WWW-Authenticate': challenge(deps.origin, { error: 'invalid_request', error_description: message }),
    });
  }
  const header = c.req.header('authorization');
  const token = bearerToken(header);
  const checked =
    header !== undefined && token === undefined
      ? { ok: false as const, error: 'invalid_request' as const, message: 'Use Authorization: Bearer <token>.' }
      : await checkBearer(deps, token, mcpResource(deps.origin));
  if (!checked.ok) {
    const fields: Record<string, string> = checked.error
      ? { error: checked.error, error_description: checked.message }
      : {};
    return jsonRpcError(401, -32001, checked.message, { 'WWW-Authenticate': challenge(deps.origin, fields) });
  }
  if (c.req.method !== 'POST') {
    return jsonRpcError(405, -32000, 'Method not allowed: this MCP endpoint is stateless and accepts POST only.', {
      Allow: 'POST',
    });
  }
  if (checked.scopes) {
    const needed = await missingScope(c.req.raw, checked.scopes);
    if (needed) {
      const message = `This token lacks the scope ${needed}.`;
      // scope names what the client should ask for next: what it has plus what this call needs.
      const scope = [...checked.scopes, needed].join(' ');
      return jsonRpcError(403, -32001, message, {
        'WWW-Authenticate': challenge(deps.origin, { error: 'insufficient_scope', scope, error_description: message }),
      });
    }
  }
  const caller = createCaller({
    deps,
    requestId: c.get('requestId'),
    clientIp: clientIp(c),
    url: c.req.url,
    authenticated: { actor: checked.actor, scopes: checked.scopes },
  });
  return serveMcp(c, caller);
}

export function register(app: OpenAPIHono<AppEnv>) {
  app.use(MCP_RESOURCE_PATH, mcpHostOnly, openCors, mcpBodyLimit);
  app.all(MCP_RESOURCE_PATH, withRequestId(answer));
}
