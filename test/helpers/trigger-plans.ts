// Reads what auto_explain reports (JSON, with actual loops) for every statement a trigger runs, and finds the plans
// whose work grows with the square of a statement's rows: a whole set of the statement (a transition table, a CTE
// over one, the change set a trigger hands on as jsonb) read again for every row of another set.

/** The settings that make auto_explain send the plan of every statement, nested ones too, to the client as a NOTICE. */
export const autoExplainToClient = [
  "LOAD 'auto_explain'",
  'SET auto_explain.log_min_duration = 0',
  'SET auto_explain.log_analyze = on',
  'SET auto_explain.log_timing = off',
  'SET auto_explain.log_nested_statements = on',
  "SET auto_explain.log_format = 'json'",
  "SET auto_explain.log_level = 'notice'",
];

/**
 * The planner as it was tempted at scale, reached with a few hundred rows. Without statistics on a transition table
 * it guesses 200 distinct ids, so it expects many matches of a join on id and, for an EXISTS, a nested loop that
 * stops at the first; past about 4,500 rows that looked cheaper than building a hash (PostgreSQL 15). With hash and
 * merge joins off, every join that can run as a nested loop does: a trigger passes only when its shape leaves no
 * quadratic plan to choose. DISCARD PLANS: PL/pgSQL keeps each statement's plan for the session, made under the
 * settings of its first run.
 */
export const nestedLoopsWherePossible = ['SET enable_hashjoin = off', 'SET enable_mergejoin = off', 'DISCARD PLANS'];
export const plannerDefaults = ['RESET enable_hashjoin', 'RESET enable_mergejoin', 'DISCARD PLANS'];

export interface PlanNode {
  'Node Type': string;
  'Actual Loops'?: number;
  'Relation Name'?: string;
  'Function Name'?: string;
  'CTE Name'?: string;
  Alias?: string;
  Plans?: PlanNode[];
}

export interface ExplainedStatement {
  query: string;
  plan: PlanNode;
}

/** The statement and plan of one auto_explain NOTICE ("duration: … ms  plan:\n{json}"), or undefined for another notice. */
export function parseAutoExplain(message: string): ExplainedStatement | undefined {
  const start = message.indexOf('{');
  if (!message.startsWith('duration:') || start < 0) return undefined;
  const explained = JSON.parse(message.slice(start)) as { 'Query Text': string; Plan: PlanNode };
  return { query: explained['Query Text'], plan: explained.Plan };
}

/** The change sets a trigger passes on as jsonb (listing_apply, search_words_apply): whole sets, like a transition table. */
const WHOLE_SET_FUNCTIONS = new Set(['jsonb_each_text', 'jsonb_each', 'jsonb_object_keys']);

/**
 * The alias under which search_counts_apply (drizzle/0045) reads the change set it is handed as an array: `unnest` of
 * it is a whole set; `unnest` of one row's array (its lexemes) is per-row work.
 */
const CHANGE_SET_ALIAS = 'change_set';

function readsWholeSet(node: PlanNode): boolean {
  if (node['Node Type'] === 'Named Tuplestore Scan' || node['Node Type'] === 'CTE Scan') return true;
  if (node['Node Type'] !== 'Function Scan') return false;
  if (node['Function Name'] === 'unnest' && node.Alias === CHANGE_SET_ALIAS) return true;
  return WHOLE_SET_FUNCTIONS.has(node['Function Name'] ?? '');
}

function describeNode(node: PlanNode): string {
  const what =
    node['Relation Name'] ??
    node['CTE Name'] ??
    (node.Alias ? `${node['Function Name']} ${node.Alias}` : node['Function Name']);
  return what ? `${node['Node Type']} on ${what}` : node['Node Type'];
}

/**
 * Every whole-set scan that runs inside a loop: the scan itself, or a node above it (a Materialize the loop
 * rescans, a SubPlan), ran more than once. Per-row work in a loop (an index probe, unnest of the row's array) is fine.
 */
export function wholeSetScansInLoops(plan: PlanNode): string[] {
  const found: string[] = [];
  const walk = (node: PlanNode, loopedAbove: PlanNode | undefined) => {
    const looped = loopedAbove ?? ((node['Actual Loops'] ?? 1) > 1 ? node : undefined);
    if (looped && readsWholeSet(node))
      found.push(`${describeNode(node)} inside ${describeNode(looped)} run ${looped['Actual Loops']} times`);
    for (const child of node.Plans ?? []) walk(child, looped);
  };
  walk(plan, undefined);
  return found;
}

/** Whether a statement reads a trigger's transition tables (the trigger functions name them so). */
export const readsTransitionTable = (query: string) => /\b(new_rows|old_rows|changed_rows)\b/.test(query);
