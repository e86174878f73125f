// Server-sent events as MCP servers send them (text/event-stream): the streamable HTTP transport's answers and the
// older HTTP+SSE transport's stream. An incremental parser of the WHATWG format, fed decoded text in any pieces.

export interface SseEvent {
  /** The `event:` field; `message` when the event named none. */
  event: string;
  data: string;
}

/** Feeds text in pieces, returns the events completed so far; lines may be split anywhere, even inside `\r\n`. */
export class SseParser {
  private pending = '';
  private event = '';
  private data: string[] = [];
  private hasData = false;

  push(text: string): SseEvent[] {
    const buffer = this.pending + text;
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const char = buffer[i];
      if (char !== '\n' && char !== '\r') continue;
      // A `\r` at the very end may be the first half of `\r\n`: wait for the next piece.
      if (char === '\r' && i === buffer.length - 1) break;
      this.line(buffer.slice(start, i), events);
      if (char === '\r' && buffer[i + 1] === '\n') i++;
      start = i + 1;
    }
    this.pending = buffer.slice(start);
    return events;
  }

  private line(line: string, events: SseEvent[]): void {
    if (line === '') {
      if (this.hasData) events.push({ event: this.event || 'message', data: this.data.join('\n') });
      this.event = '';
      this.data = [];
      this.hasData = false;
      return;
    }
    if (line.startsWith(':')) return; // a comment (servers send them as keep-alives)
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') {
      this.data.push(value);
      this.hasData = true;
    }
  }
}
