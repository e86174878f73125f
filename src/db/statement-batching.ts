// Concurrent calls of one statement, run as one statement (docs/bench.md "Several searches in one statement").
// Every statement costs the database a round trip, a transaction and, for a PL/pgSQL function, setting up its
// expressions again, whatever it reads; and it costs the server a pool checkout, a protocol exchange and a wake-up
// per answer. Under load many requests wait for the same kind of read at once, so they can share all of that.
//
// A call is sent at once while fewer than `maxInFlight` statements of its kind are running: a quiet server waits
// for nothing and sends one call per statement. Calls that arrive while that many run wait, and are sent together
// (at most `maxBatch` in one statement) as soon as one of the running statements finishes.

export interface StatementBatcher<In, Out> {
  /** The answer to one call, computed alone or together with the calls waiting beside it. */
  run(input: In): Promise<Out>;
  /** Calls answered and statements sent since start (a batch retried call by call counts each of its statements). */
  counts(): { calls: number; statements: number; largestBatch: number };
}

export interface BatcherOptions {
  /** Statements of this kind running at once; past it, calls wait and are batched. Infinity: never batch. */
  maxInFlight: number;
  /** Most calls in one statement (a batch's statement takes as long as its calls together). */
  maxBatch: number;
}

/**
 * `runBatch` answers its inputs in order, one output per input. A batch of several calls that fails is run again
 * call by call, so a failure belongs to the call that caused it (or to each, when the database itself failed).
 * @example
 * const pages = createStatementBatcher((calls) => readPages(db, calls), { maxInFlight: 3, maxBatch: 16 });
 * const page = await pages.run(call);
 */
export function createStatementBatcher<In, Out>(
  runBatch: (inputs: readonly In[]) => Promise<readonly Out[]>,
  options: BatcherOptions,
): StatementBatcher<In, Out> {
  type Waiting = { input: In; resolve: (out: Out) => void; reject: (error: unknown) => void };
  const waiting: Waiting[] = [];
  let inFlight = 0;
  const counts = { calls: 0, statements: 0, largestBatch: 0 };

  const runOnce = async (inputs: readonly In[]): Promise<readonly Out[]> => {
    counts.statements++;
    const outs = await runBatch(inputs);
    if (outs.length !== inputs.length) throw new Error(`a batch of ${inputs.length} calls gave ${outs.length} answers`);
    return outs;
  };
  const settle = (call: Waiting, work: Promise<Out>) =>
    work.then(
      (out) => {
        counts.calls++;
        call.resolve(out);
      },
      (error: unknown) => {
        counts.calls++;
        call.reject(error);
      },
    );
  const send = async (batch: Waiting[]): Promise<void> => {
    counts.largestBatch = Math.max(counts.largestBatch, batch.length);
    let outs: readonly Out[];
    try {
      outs = await runOnce(batch.map((call) => call.input));
    } catch (error) {
      if (batch.length === 1) return settle(batch[0]!, Promise.reject(error));
      await Promise.all(
        batch.map((call) =>
          settle(
            call,
            runOnce([call.input]).then((one) => one[0]!),
          ),
        ),
      );
      return;
    }
    await Promise.all(batch.map((call, i) => settle(call, Promise.resolve(outs[i]!))));
  };
  const flush = () => {
    while (waiting.length > 0 && inFlight < options.maxInFlight) {
      const batch = waiting.splice(0, options.maxBatch);
      inFlight++;
      void send(batch).finally(() => {
        inFlight--;
        flush();
      });
    }
  };

  return {
    run(input) {
      return new Promise<Out>((resolve, reject) => {
        waiting.push({ input, resolve, reject });
        flush();
      });
    },
    counts: () => ({ ...counts }),
  };
}

/**
 * The batchers of one process, one per kind of statement, all with the same `slots` (statements of one kind running
 * at once before calls wait to be batched). Infinity (the default of buildDeps: PGlite's one connection, and Neon's HTTP
 * driver on Workers, whose isolates see few requests at once) sends every call at once, one per statement; the Node
 * server over a pool passes one less than its pool (slotsOfPool), so a connection stays free for every other statement.
 */
export interface StatementBatching {
  /** The batcher of `kind`, made on first use: every request of the process then shares it. */
  batcher<In, Out>(
    kind: string,
    runBatch: (inputs: readonly In[]) => Promise<readonly Out[]>,
    options: { maxBatch: number },
  ): StatementBatcher<In, Out>;
}

export function createStatementBatching(options: { slots: number }): StatementBatching {
  const batchers = new Map<string, StatementBatcher<never, unknown>>();
  return {
    batcher<In, Out>(
      kind: string,
      runBatch: (inputs: readonly In[]) => Promise<readonly Out[]>,
      batchOptions: { maxBatch: number },
    ) {
      let made = batchers.get(kind) as StatementBatcher<In, Out> | undefined;
      if (!made) {
        made = createStatementBatcher(runBatch, { maxInFlight: options.slots, maxBatch: batchOptions.maxBatch });
        batchers.set(kind, made as StatementBatcher<never, unknown>);
      }
      return made;
    },
  };
}

/** The slots of a server with a pool of `poolMax` connections: all but one, and at least one. */
export const slotsOfPool = (poolMax: number): number => Math.max(1, poolMax - 1);
