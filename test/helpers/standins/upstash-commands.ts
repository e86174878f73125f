// Translates Upstash REST commands for open-source Redis and encodes Redis replies the way Upstash does.
import { RespError, RespSimple, type RespValue } from './resp-client';
import { type ScriptPatcher, scriptSha } from './lua-shebang';

/** A request body that is not a command; answered 400 like Upstash. */
export class InvalidCommandError extends Error {}

/** A JSON command as the REST API receives it: ["SET", "key", "value", "EX", 10]. */
export type RestCommand = unknown[];

function asArg(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return value === null || value === undefined ? '' : JSON.stringify(value);
}

/** A command ready for Redis plus a fix-up applied to its reply. */
export interface PreparedCommand {
  args: string[];
  fixReply(reply: RespValue): RespValue;
}

const keepReply = (reply: RespValue) => reply;

/** Validates a JSON command and applies the Lua shebang workaround to EVAL, EVALSHA and SCRIPT LOAD. */
export function prepareCommand(command: unknown, scripts: ScriptPatcher): PreparedCommand {
  if (!Array.isArray(command) || command.length === 0)
    throw new InvalidCommandError('ERR command must be a non-empty array');
  const args = command.map(asArg);
  const name = (args[0] ?? '').toUpperCase();
  if ((name === 'EVAL' || name === 'EVAL_RO') && args[1] !== undefined) {
    args[1] = scripts.patch(args[1]);
  } else if ((name === 'EVALSHA' || name === 'EVALSHA_RO') && args[1] !== undefined) {
    args[1] = scripts.redisSha(args[1]);
  } else if (name === 'SCRIPT' && args[1]?.toUpperCase() === 'LOAD' && args[2] !== undefined) {
    const original = args[2];
    args[2] = scripts.patch(original);
    // The client expects the hash of what it sent, which is what it will use in EVALSHA.
    return { args, fixReply: (reply) => (reply instanceof RespError ? reply : Buffer.from(scriptSha(original))) };
  }
  return { args, fixReply: keepReply };
}

/** JSON for one reply: with base64 encoding every string is base64 except the simple string "OK". */
export function encodeReply(reply: RespValue, base64: boolean): unknown {
  if (reply instanceof RespSimple)
    return base64 && reply.value !== 'OK' ? Buffer.from(reply.value).toString('base64') : reply.value;
  if (reply instanceof RespError) return reply.message;
  if (Buffer.isBuffer(reply)) return base64 ? reply.toString('base64') : reply.toString('utf8');
  if (Array.isArray(reply)) return reply.map((item) => encodeReply(item, base64));
  return reply;
}

/** `{result}` or `{error}`, the per-command envelope of the REST API. */
export function envelope(reply: RespValue, base64: boolean): { result: unknown } | { error: string } {
  return reply instanceof RespError ? { error: reply.message } : { result: encodeReply(reply, base64) };
}
