// How often a submitter may retry a failed crawl: a catalogue fact, so the CLI's help and llms.txt read the same
// number as the rule in src/submissions/retry.ts without importing the verb.

/** A submitter may put a failed crawl back in the queue this often per site and UTC day (docs/pipeline.md). */
export const MAX_RETRIES_PER_DAY = 3;
