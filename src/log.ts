/** Structured one-line JSON logs. Secrets are never passed in; `redact` masks anything key-shaped that slips in. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = keyof typeof levels;

const SECRET_PATTERNS = [
  /tdk_[0-9A-Za-z]{8,}/g, // tooldir API keys
  /(sk|rk)_(live|test)_[0-9A-Za-z]+/g, // Stripe secret keys
  /whsec_[0-9A-Za-z+/=]+/g, // Stripe webhook secrets
  /(tooldir_session|tooldir_editor)=[^;\s"]+/g, // session cookies
];

export function redact(text: string): string {
  return SECRET_PATTERNS.reduce((t, re) => t.replace(re, '[redacted]'), text);
}

export function createLogger(level: Level = 'info', sink: (line: string) => void = (l) => console.log(l)): Logger {
  const emit = (at: Exclude<Level, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    if (levels[at] < levels[level]) return;
    sink(redact(JSON.stringify({ level: at, time: new Date().toISOString(), msg, ...fields })));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}
