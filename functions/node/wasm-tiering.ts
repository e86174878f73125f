import { setFlagsFromString } from 'node:v8';

/**
 * PGlite is a 9 MB WebAssembly module. V8 compiles it first with its quick compiler, then recompiles a function with
 * its optimizing one once the function has run a budget of code. With the default budget a restart sent so many
 * functions to be recompiled that the server answered its first request about 0.4 s late on 2 cores, the main
 * thread idle meanwhile (docs/bench.md "Cold start"). A budget about ten times larger lets the start-up's statements
 * run on the quick code; functions that stay hot are optimized later all the same (a query-heavy loop reached the
 * default's speed by its third round), so a long-running server loses nothing. Called before PGlite is created.
 */
export function deferWasmTierUp(): void {
  setFlagsFromString('--wasm-tiering-budget=20000000');
}
