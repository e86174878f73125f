import type { Db } from '../../src/db/client';
import { seedTools } from './live-tools';
import { giveMcpServer } from './mcp-listings';
import { relevanceCorpus, relevanceMcpServers } from './search-relevance-set';

/**
 * Loads the relevance set's directory (./search-relevance-set.ts) into `db`: the corpus as live tools, then the MCP
 * servers some of them name, as a reachable probe left them. The database must hold nothing else.
 */
export async function seedRelevanceDirectory(db: Db): Promise<void> {
  const seeds = relevanceCorpus();
  const sites = await seedTools(db, seeds);
  for (const [name, tools] of Object.entries(relevanceMcpServers)) {
    const index = seeds.findIndex((seed) => seed.name === name);
    const site = sites[index];
    if (!site) throw new Error(`relevanceMcpServers names ${name}, which the corpus does not hold`);
    const host = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    await giveMcpServer(db, site.id, `https://mcp.${host}.example/mcp`, {
      tools: tools.map((tool) => ({ name: tool })),
    });
  }
}
