// CPU time per process from /proc (Linux), to say where a request's CPU goes: the server, PostgreSQL
// (postmaster and its backends) and the load generator. Everything runs on the same cores, so the ratio
// to the floor is in the end a ratio of total CPU per request.
import { readdirSync, readFileSync } from 'node:fs';

const TICK_US = 10_000; // USER_HZ is 100 on Linux

function stat(pid: number): { ppid: number; ticks: number } | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined; // gone, or no /proc
  }
}

/** The postmaster listening on `port` and its children (backends, background workers). */
function postgresProcesses(port: number): number[] {
  let pids: number[];
  try {
    pids = readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .map(Number);
  } catch {
    return [];
  }
  const postmaster = pids.find((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return args.includes('-p') && args[args.indexOf('-p') + 1] === String(port);
    } catch {
      return false;
    }
  });
  if (postmaster === undefined) return [];
  return [postmaster, ...pids.filter((pid) => stat(pid)?.ppid === postmaster)];
}

export interface CpuSample {
  server: number;
  postgres: number;
  loadGenerator: number;
}

/** Starts counting; the returned function gives µs of CPU per request for each side since the start. */
export function startCpuCount(
  serverPid: number,
  postgresPort: number | undefined,
): (requests: number) => CpuSample | undefined {
  const ticks = () => ({
    server: stat(serverPid)?.ticks ?? NaN,
    postgres:
      postgresPort === undefined
        ? NaN
        : postgresProcesses(postgresPort).reduce((sum, pid) => sum + (stat(pid)?.ticks ?? 0), 0),
    loadGenerator: stat(process.pid)?.ticks ?? NaN,
  });
  const before = ticks();
  return (requests) => {
    const after = ticks();
    if (!requests || Number.isNaN(after.server)) return undefined;
    const per = (key: keyof CpuSample) => Math.round(((after[key] - before[key]) * TICK_US) / requests);
    return { server: per('server'), postgres: per('postgres'), loadGenerator: per('loadGenerator') };
  };
}
