// A local stand-in for the Upstash Redis REST API (/, /pipeline, /multi-exec) over a real redis-server.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './listen';
import { ScriptPatcher } from './lua-shebang';
import { header, readBody, sendJson as send } from './http-io';
import { RespClient, RespError, type RespValue } from './resp-client';
import { envelope, InvalidCommandError, prepareCommand, type PreparedCommand } from './upstash-commands';
import { isLoopbackHost } from './loopback';

/** A running Upstash REST stand-in: `new Redis({ url, token })` from @upstash/redis talks to it. */
export interface UpstashStandIn {
  url: string;
  token: string;
  /** HTTP requests served (each is one Redis round trip for the app). */
  readonly requestCount: number;
  /** Every command received, upper-cased name first (for round-trip assertions); reset with clearCommands(). */
  readonly commands: readonly string[][];
  clearCommands(): void;
  /** Simulates an Upstash outage without touching Redis: every request answers 500. */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

async function runSingle(redis: RespClient, command: PreparedCommand, base64: boolean, res: ServerResponse) {
  const [reply] = await redis.send([command.args]);
  const fixed = command.fixReply(reply ?? null);
  if (fixed instanceof RespError) return send(res, 400, { error: fixed.message });
  send(res, 200, envelope(fixed, base64));
}

async function runPipeline(redis: RespClient, commands: PreparedCommand[], base64: boolean, res: ServerResponse) {
  const replies = await redis.send(commands.map((c) => c.args));
  send(
    res,
    200,
    replies.map((reply, i) => envelope(commands[i]?.fixReply(reply) ?? reply, base64)),
  );
}

async function runMultiExec(redis: RespClient, commands: PreparedCommand[], base64: boolean, res: ServerResponse) {
  const replies = await redis.send([['MULTI'], ...commands.map((c) => c.args), ['EXEC']]);
  const exec = replies[replies.length - 1];
  if (exec instanceof RespError) return send(res, 400, { error: exec.message });
  if (!Array.isArray(exec)) return send(res, 400, { error: 'ERR transaction aborted' });
  send(
    res,
    200,
    exec.map((reply: RespValue, i) => envelope(commands[i]?.fixReply(reply) ?? reply, base64)),
  );
}

/**
 * Starts the stand-in in front of the Redis at `redisUrl` (loopback only). Requests need `Authorization: Bearer <token>`.
 * @example
 * const upstash = await startUpstashStandIn({ redisUrl: redisServer.url });
 * const redis = new Redis({ url: upstash.url, token: upstash.token });
 */
export async function startUpstashStandIn(options: { redisUrl: string; token?: string }): Promise<UpstashStandIn> {
  const target = new URL(options.redisUrl);
  if (!isLoopbackHost(target.hostname)) throw new Error(`stand-in refuses non-loopback Redis ${target.hostname}`);
  const redis = new RespClient(target.hostname, Number(target.port || 6379));
  const scripts = new ScriptPatcher();
  const token = options.token ?? 'upstash-stand-in-token';
  const commandLog: string[][] = [];
  let requestCount = 0;
  let down = false;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    requestCount++;
    if (header(req, 'authorization') !== `Bearer ${token}`) return send(res, 401, { error: 'Unauthorized' });
    if (down) return send(res, 500, { error: 'ERR stand-in is down' });
    const base64 = header(req, 'upstash-encoding')?.toLowerCase() === 'base64';
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname.replace(/\/$/, '') || '/';
    try {
      const batch = path === '/pipeline' || path === '/multi-exec';
      if (req.method !== 'POST' || (!batch && path !== '/'))
        return send(res, 404, { error: `no route ${req.method} ${path}` });
      const body: unknown = JSON.parse(await readBody(req));
      const raw = batch ? body : [body];
      if (!Array.isArray(raw)) return send(res, 400, { error: 'ERR body must be an array of commands' });
      const commands = raw.map((command) => prepareCommand(command, scripts));
      for (const command of commands)
        commandLog.push([(command.args[0] ?? '').toUpperCase(), ...command.args.slice(1)]);
      if (path === '/pipeline') await runPipeline(redis, commands, base64, res);
      else if (path === '/multi-exec') await runMultiExec(redis, commands, base64, res);
      else if (commands[0]) await runSingle(redis, commands[0], base64, res);
    } catch (error) {
      if (error instanceof InvalidCommandError) send(res, 400, { error: error.message });
      else if (error instanceof SyntaxError) send(res, 400, { error: 'ERR body is not JSON' });
      else send(res, 500, { error: `ERR ${error instanceof Error ? error.message : String(error)}` });
    }
  }

  const listening = await listenOnLoopback(createServer((req, res) => void handle(req, res)));
  return {
    url: listening.url,
    token,
    get requestCount() {
      return requestCount;
    },
    get commands() {
      return commandLog;
    },
    clearCommands() {
      commandLog.length = 0;
    },
    setDown(value) {
      down = value;
    },
    async close() {
      await listening.close();
      redis.close();
    },
  };
}
