// A minimal RESP2 client: pipelined commands over one TCP connection, replies kept raw (simple vs bulk strings).
import { connect, type Socket } from 'node:net';

/** A Redis error reply (a value, not a thrown error: pipelines mix them with results). */
export class RespError {
  constructor(readonly message: string) {}
}

/** A simple-string reply (+OK, +PONG), kept apart from bulk strings because Upstash encodes them differently. */
export class RespSimple {
  constructor(readonly value: string) {}
}

/** One decoded reply. Bulk strings stay Buffers; RESP2 maps (HGETALL) already arrive as flat arrays. */
export type RespValue = RespSimple | RespError | Buffer | number | null | RespValue[];

interface Pending {
  count: number;
  replies: RespValue[];
  resolve(replies: RespValue[]): void;
  reject(error: Error): void;
}

function parseReply(buf: Buffer, start: number): { value: RespValue; next: number } | undefined {
  const lineEnd = buf.indexOf('\r\n', start);
  if (lineEnd < 0) return undefined;
  const type = String.fromCharCode(buf[start] ?? 0);
  const line = buf.toString('utf8', start + 1, lineEnd);
  const next = lineEnd + 2;
  switch (type) {
    case '+':
      return { value: new RespSimple(line), next };
    case '-':
      return { value: new RespError(line), next };
    case ':':
      return { value: Number(line), next };
    case '$': {
      const length = Number(line);
      if (length < 0) return { value: null, next };
      if (buf.length < next + length + 2) return undefined;
      return { value: buf.subarray(next, next + length), next: next + length + 2 };
    }
    case '*': {
      const count = Number(line);
      if (count < 0) return { value: null, next };
      const items: RespValue[] = [];
      let offset = next;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buf, offset);
        if (!item) return undefined;
        items.push(item.value);
        offset = item.next;
      }
      return { value: items, next: offset };
    }
    default:
      throw new Error(`unexpected RESP type byte ${JSON.stringify(type)}`);
  }
}

function encodeCommand(args: readonly string[]): string {
  return `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;
}

/** Talks RESP2 to one Redis; reconnects lazily after the server went away (stop/start fault tests). */
export class RespClient {
  private socket: Socket | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly pending: Pending[] = [];

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  private fail(error: Error): void {
    this.socket?.destroy();
    this.socket = undefined;
    this.buffer = Buffer.alloc(0);
    for (const entry of this.pending.splice(0)) entry.reject(error);
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    let offset = 0;
    for (;;) {
      const head = this.pending[0];
      if (!head) break;
      const parsed = parseReply(this.buffer, offset);
      if (!parsed) break;
      offset = parsed.next;
      head.replies.push(parsed.value);
      if (head.replies.length === head.count) {
        this.pending.shift();
        head.resolve(head.replies);
      }
    }
    this.buffer = this.buffer.subarray(offset);
  }

  private ensureSocket(): Socket {
    if (this.socket) return this.socket;
    const socket = connect({ host: this.host, port: this.port });
    socket.setNoDelay(true);
    socket.on('data', (chunk) => this.onData(chunk));
    socket.on('error', (error) => this.fail(new Error(`redis unavailable: ${error.message}`)));
    socket.on('close', () => {
      if (this.socket === socket) this.fail(new Error('redis connection closed'));
    });
    this.socket = socket;
    return socket;
  }

  /** Sends the commands in ONE write (so MULTI…EXEC cannot interleave) and resolves with one reply each. */
  send(commands: readonly (readonly string[])[]): Promise<RespValue[]> {
    return new Promise((resolve, reject) => {
      const socket = this.ensureSocket();
      this.pending.push({ count: commands.length, replies: [], resolve, reject });
      socket.write(commands.map(encodeCommand).join(''));
    });
  }

  close(): void {
    this.fail(new Error('client closed'));
  }
}
