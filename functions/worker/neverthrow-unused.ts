// Build shim (wrangler.toml [alias] for 'neverthrow'): @upstash/qstash imports `ok` and `err` from neverthrow for
// its Workflow SDK alone (workflow steps, failure callbacks). The service uses its Client (publish) and Receiver
// (signature check), which never call them. Leaving it out keeps ~2 KiB gzipped off the Worker bundle; a workflow
// path that ever ran would fail here, loudly.
const unused = (): never => {
  throw new Error('neverthrow is not part of the Worker build: the QStash Workflow SDK is not used');
};
export const ok = unused;
export const err = unused;
