// The Worker's start-up cost in workerd: how long evaluating the bundle's modules takes, which every cold isolate
// pays before its first request. Measured like `wrangler check startup` does (miniflare, a wrapper module that
// imports the bundle inside its first fetch, V8's CPU profiler over the inspector), and also as wall time: the
// first fetch (which imports) minus the second (which does not). Each repeat is a fresh workerd process.
import { Miniflare } from 'miniflare';
import WebSocket from 'ws';

export interface StartupSample {
  /** CPU time the profiler saw during the import (everything but idle), ms. */
  cpuMs: number;
  /** First fetch (import + a trivial answer) minus the second, ms. */
  wallMs: number;
  /** The packages or app folders (or runtime parts) with the most self time during the import: where the start-up goes. */
  top: Array<{ name: string; ms: number }>;
}

interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  }>;
  samples: number[];
  timeDeltas: number[];
}

const WRAPPER = 'startup-probe';
const wrapper = `let loaded;
export default { async fetch() { loaded ??= await import('./worker.js'); return new Response(typeof loaded.default); } };`;

function workerd(code: string, compatibilityDate: string, inspect: boolean) {
  return new Miniflare({
    name: WRAPPER,
    compatibilityDate,
    modulesRoot: '/',
    modules: [
      { type: 'ESModule', path: '/probe.mjs', contents: wrapper },
      { type: 'ESModule', path: '/worker.js', contents: code },
    ],
    ...(inspect && { inspectorPort: 0 }),
  });
}

/** Names where a position of the bundle comes from (a source file through the source map); by default the position. */
export type Locate = (line: number, column: number) => string;

function summarize(profile: CpuProfile, locate?: Locate): { cpuMs: number; top: StartupSample['top'] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    const us = profile.timeDeltas[i + 1] ?? 0; // a sample's time runs until the next one
    if (!frame || frame.functionName === '(idle)') return;
    busy += us;
    // A frame of the bundle is named by the package or app folder its function comes from (the source map); the
    // bundle's own top level (every module's top-level statements, hoisted into one function) stays "(top level)".
    const inBundle = frame.url.endsWith('worker.js') && frame.lineNumber >= 0 && frame.functionName !== '';
    const name =
      inBundle && locate
        ? locate(frame.lineNumber, frame.columnNumber)
        : frame.url.endsWith('worker.js')
          ? '(top level of worker.js)'
          : frame.functionName;
    self.set(name, (self.get(name) ?? 0) + us);
  });
  const top = [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10 }));
  return { cpuMs: busy / 1000, top };
}

async function profiledImport(
  code: string,
  compatibilityDate: string,
  locate?: Locate,
): Promise<{ cpuMs: number; top: StartupSample['top'] }> {
  const mf = workerd(code, compatibilityDate, true);
  try {
    await mf.ready;
    const ws = new WebSocket(new URL(`/core:user:${WRAPPER}`, await mf.getInspectorURL()).href);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    let id = 0;
    const replies = new Map<number, (result: unknown) => void>();
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
      if (message.id !== undefined) replies.get(message.id)?.(message.result);
    });
    const send = (method: string, params: Record<string, unknown> = {}) =>
      new Promise<unknown>((resolve) => {
        replies.set(++id, resolve);
        ws.send(JSON.stringify({ id, method, params }));
      });
    await send('Profiler.enable');
    await send('Profiler.setSamplingInterval', { interval: 100 });
    await send('Profiler.start');
    await (await mf.dispatchFetch('http://probe.test/')).text();
    const { profile } = (await send('Profiler.stop')) as { profile: CpuProfile };
    ws.close();
    return summarize(profile, locate);
  } finally {
    await mf.dispose();
  }
}

async function timedImport(code: string, compatibilityDate: string): Promise<number> {
  const mf = workerd(code, compatibilityDate, false);
  try {
    await mf.ready;
    const time = async () => {
      const started = performance.now();
      await (await mf.dispatchFetch('http://probe.test/')).text();
      return performance.now() - started;
    };
    const first = await time();
    const second = await time();
    return first - second;
  } finally {
    await mf.dispose();
  }
}

/** `repeats` fresh workerd processes each for the profile and for the wall time. */
export async function measureWorkerStartup(
  code: string,
  options: { compatibilityDate: string; repeats: number; locate?: Locate },
): Promise<StartupSample[]> {
  const samples: StartupSample[] = [];
  for (let i = 0; i < options.repeats; i++) {
    const { cpuMs, top } = await profiledImport(code, options.compatibilityDate, options.locate);
    const wallMs = await timedImport(code, options.compatibilityDate);
    samples.push({ cpuMs, wallMs, top });
  }
  return samples;
}
