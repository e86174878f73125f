// How long the Node server keeps an idle kept-alive connection, and how long it waits for a request (README
// "Connections"). Node's defaults close an idle connection after 5 s. A client that keeps idle sockets longer
// (browsers 60 to 300 s, proxies and load balancers 60 s, an undici Agent with a long keepAliveTimeout) then sends
// its next request on a socket the server is closing at that moment, and gets `UND_ERR_SOCKET` ("other side
// closed") or ECONNRESET mid-request. The rule is that the server must outlast every client and proxy in front
// of it, so the one that closes an idle connection is never the one the other side is about to write to.
import type { Server } from 'node:http';

export const CONNECTION_TIMEOUTS = {
  /**
   * Idle time before the server closes a kept-alive connection: above the 60 s idle timeout of AWS ALB, nginx's
   * upstream keepalive and most proxies, and above undici's 4 s default. Node advertises it in a
   * `Keep-Alive: timeout=72` header, which undici honours (it closes a second earlier on its side).
   */
  keepAliveTimeoutMs: 72_000,
  /**
   * Time to receive a request's headers. Above keepAliveTimeout, so a request that starts just before the idle
   * limit is not cut by the header deadline instead (Node's own advice, and the old kept-alive header race).
   */
  headersTimeoutMs: 75_000,
  /**
   * Time to receive a whole request (headers and body): bodies here are small (every route has a size limit), so
   * two minutes only stops a client that trickles bytes to hold a connection open. Responses (an MCP event
   * stream) are not bounded by it.
   */
  requestTimeoutMs: 120_000,
} as const;

/** Sets the three deadlines on the server before it accepts its first connection. */
export function applyConnectionTimeouts(
  server: Pick<Server, 'keepAliveTimeout' | 'headersTimeout' | 'requestTimeout'>,
): void {
  server.keepAliveTimeout = CONNECTION_TIMEOUTS.keepAliveTimeoutMs;
  server.headersTimeout = CONNECTION_TIMEOUTS.headersTimeoutMs;
  server.requestTimeout = CONNECTION_TIMEOUTS.requestTimeoutMs;
}
