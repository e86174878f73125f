import type { ToolSeed } from './live-tools';

// The relevance set of directory search (docs/mcp-and-search.md "Ranking"): a directory of 60 AI tools and the
// results a person would expect first for each query. Run through REST on PGlite
// (test/functions/v1/search-relevance.test.ts) and on PostgreSQL through Neon's HTTP driver
// (test/e2e/search-neon-http.test.ts). The corpus must be the whole directory of its database, so nothing else
// can outrank a tool. Tools are listed in corpus order (the last one newest), which decides ties inside a tier.

const corpus: Array<[string, string, string[], { featured?: boolean; sponsored?: boolean }?]> = [
  ['Notion AI', 'Write, summarize and organize notes inside your workspace.', ['writing', 'productivity']],
  ['Notion Calendar', 'Schedule meetings and sync calendars.', ['productivity']],
  ['ChatGPT', 'Conversational assistant for questions, writing and code.', ['chat']],
  ['Claude', 'AI assistant for writing, analysis and coding.', ['chat', 'writing']],
  ['Midjourney', 'Generate images from text prompts.', ['image']],
  ['Stable Diffusion Web', 'Open image generation in the browser.', ['image']],
  ['Dream Canvas', 'Create and edit pictures with prompts.', ['image']],
  ['GitHub Copilot', 'AI pair programmer that suggests code in your editor.', ['code']],
  ['Cursor', 'Code editor with an AI agent that edits your codebase.', ['code']],
  ['Tabnine', 'Code completion for teams.', ['code']],
  ['Otter Transcribe', 'Transcribe meetings and interviews in real time.', ['audio', 'productivity']],
  ['Descript', 'Edit podcasts and videos by editing the transcript.', ['audio', 'video']],
  ['ElevenLabs Voice', 'Realistic text to speech and voice cloning.', ['audio']],
  ['Runway Video', 'Generate and edit video with AI.', ['video']],
  ['Synthesia', 'Create videos with AI avatars from a script.', ['video']],
  ['Jasper Marketing', 'Write marketing copy, ads and blog posts.', ['marketing', 'writing']],
  ['Copy AI', 'Sales emails and marketing copy generator.', ['marketing']],
  ['Grammarly', 'Fix grammar and improve your writing.', ['writing']],
  ['QuillBot Paraphraser', 'Paraphrase and summarize text.', ['writing']],
  ['Perplexity', 'Answer engine that searches the web and cites sources.', ['research']],
  ['Elicit Research', 'Find and summarize research papers.', ['research']],
  ['Consensus', 'Search engine for scientific papers.', ['research']],
  ['Julius Data', 'Analyze spreadsheets and chart data by chatting.', ['data']],
  ['Rows Spreadsheet AI', 'Spreadsheet with built-in AI formulas.', ['data', 'productivity']],
  ['Figma AI', 'Design interfaces and generate layouts.', ['design']],
  ['Uizard', 'Turn sketches into app designs.', ['design']],
  ['Khanmigo Tutor', 'Personal tutor for students and teachers.', ['education']],
  ['Duolingo Max', 'Learn languages with AI conversation practice.', ['education']],
  ['Fireflies Meeting Notes', 'Record meetings and write notes automatically.', ['productivity']],
  ['Summarize Anything', 'Summaries of articles, PDFs and videos.', ['productivity', 'research']],
  ['Meeting Summarizer Pro', 'Summaries of your meeting recordings.', ['productivity'], { featured: true }],
  ['Translate Now', 'Translate documents into 100 languages.', ['writing']],
  ['DeepL Translator', 'Accurate translation of text and documents.', ['writing']],
  ['Writesonic', 'Write blog posts and landing pages.', ['writing', 'marketing'], { featured: true, sponsored: true }],
  ['Writer', 'Enterprise writing assistant for teams.', ['writing']],
  ['Lex Writer', 'A word processor with an AI co-writer.', ['writing']],
  ['Zapier Automations', 'Automate workflows across your apps.', ['productivity']],
  ['Pictory', 'Turn blog posts into short videos.', ['video', 'marketing']],
  ['Lumen5', 'Video maker for social media posts.', ['video', 'marketing']],
  ['Photoroom', 'Remove backgrounds from product photos.', ['image', 'design']],
  ['Background Eraser', 'Remove image backgrounds automatically.', ['image']],
  ['Canva Magic Design', 'Design social posts and presentations with AI.', ['design']],
  ['Gamma Slides', 'Create slide decks and presentations from a prompt.', ['design', 'productivity']],
  ['Beautiful AI', 'Presentation software that designs slides for you.', ['design']],
  ['Harvey Legal', 'AI for legal contracts and research.', ['research', 'writing']],
  ['Spellbook', 'Draft and review legal contracts in Word.', ['writing']],
  ['Replit Agent', 'Build and deploy apps from a description.', ['code']],
  ['Codeium', 'Free code completion and chat in your IDE.', ['code']],
  ['Phind', 'Search engine for developers with code answers.', ['code', 'research']],
  ['Character AI', 'Chat with AI characters.', ['chat']],
  ['Pi Assistant', 'A personal AI for supportive conversation.', ['chat']],
  ['Suno Music', 'Make songs from a text prompt.', ['audio']],
  ['Udio', 'Generate music in any style.', ['audio']],
  ['Krisp', 'Noise cancellation for calls.', ['audio', 'productivity']],
  ['Tome', 'Storytelling presentations with AI.', ['design']],
  ['Hemingway Editor', 'Make your writing bold and clear.', ['writing']],
  ['Wordtune', 'Rewrite sentences in a better tone.', ['writing']],
  ['Superhuman Mail', 'Write and triage email faster.', ['productivity']],
  ['Lavender Email Coach', 'Write sales emails that get replies.', ['marketing']],
  ['Voiceflow', 'Design and build chat agents.', ['chat', 'design']],
];

// [what the case shows, query, category, the expected results in order: the top three, or all of them if fewer]
export const relevanceCases: Array<[string, string, string | undefined, string[]]> = [
  // Exact names come first, even over newer or featured tools whose names share the words.
  ['exact name', 'chatgpt', undefined, ['ChatGPT']],
  ['exact two-word name before other names with its words', 'notion ai', undefined, ['Notion AI']],
  ['exact name before a newer featured near-match', 'summarize anything', undefined, ['Summarize Anything']],
  ['exact name before a longer name that contains it', 'writer', undefined, ['Writer', 'Lex Writer']],
  // ("now" is an English stop word, so the other translator matches the query's one real word.)
  [
    'exact name, case-insensitive, before a name with the same stem',
    'TRANSLATE NOW',
    undefined,
    ['Translate Now', 'DeepL Translator'],
  ],
  // Every word in the name ranks above the words in the description only.
  ['name match above a newer description match', 'music', undefined, ['Suno Music', 'Udio']],
  ['name match above description match', 'spreadsheet', undefined, ['Rows Spreadsheet AI', 'Julius Data']],
  ['name match above description match', 'legal', undefined, ['Harvey Legal', 'Spellbook']],
  [
    'name matches, then description matches',
    'meeting',
    undefined,
    ['Meeting Summarizer Pro', 'Fireflies Meeting Notes', 'Otter Transcribe'],
  ],
  ['two-word name', 'stable diffusion', undefined, ['Stable Diffusion Web']],
  ['two words of a longer name', 'github copilot', undefined, ['GitHub Copilot']],
  ['one word of a name', 'copilot', undefined, ['GitHub Copilot']],
  ['both words in one name beat one word in each', 'meeting notes', undefined, ['Fireflies Meeting Notes']],
  [
    'a whole (stemmed) word of a name before a newer name it only begins',
    'voices',
    undefined,
    ['ElevenLabs Voice', 'Voiceflow'],
  ],
  [
    'a whole word of a name before a newer name it only begins',
    'copy',
    undefined,
    ['Copy AI', 'GitHub Copilot', 'Jasper Marketing'],
  ],
  // Words typed halfway.
  ['prefix of a name word', 'transcr', undefined, ['Otter Transcribe', 'Descript']],
  ['prefix of a name', 'photo', undefined, ['Photoroom']],
  ['prefix of the last of two words', 'gamma sli', undefined, ['Gamma Slides']],
  ['prefix matches names first', 'chat', undefined, ['ChatGPT', 'Voiceflow', 'Character AI']],
  // Description matches, several words, stemming.
  ['two description words', 'image generation', undefined, ['Stable Diffusion Web', 'Midjourney']],
  ['description words in any order and form', 'generate images', undefined, ['Stable Diffusion Web', 'Midjourney']],
  ['two description words', 'remove background', undefined, ['Background Eraser', 'Photoroom']],
  ['two description words', 'code completion', undefined, ['Codeium', 'Tabnine']],
  ['two description words', 'legal contracts', undefined, ['Spellbook', 'Harvey Legal']],
  ['two description words', 'writing assistant', undefined, ['Writer', 'Claude', 'ChatGPT']],
  [
    'a featured and sponsored tool keeps its place among equal matches',
    'blog posts',
    undefined,
    ['Pictory', 'Writesonic', 'Jasper Marketing'],
  ],
  // Typos: the words match nothing, so the closest names are offered.
  ['typo in a one-word name', 'chatgtp', undefined, ['ChatGPT']],
  ['typo in a one-word name', 'midjourny', undefined, ['Midjourney']],
  ['typo in a one-word name', 'synthesa', undefined, ['Synthesia']],
  ['typo in a one-word name', 'grammerly', undefined, ['Grammarly']],
  ['swapped letters in the second word of a name', 'otter transcirbe', undefined, ['Otter Transcribe']],
  ['typo in a name word', 'perplexty', undefined, ['Perplexity']],
  // Category-filtered.
  ['category keeps only its tools', 'video', 'marketing', ['Lumen5', 'Pictory']],
  ['category keeps only its tools', 'video', 'audio', ['Descript']],
  ['category keeps only its tools', 'generate', 'video', ['Runway Video']],
  ['category drops name matches outside it', 'chat', 'code', ['Codeium']],
  ['category with a name match', 'writer', 'writing', ['Writer', 'Lex Writer']],
  ['category, empty query: newest first', '', 'research', ['Phind', 'Harvey Legal', 'Summarize Anything']],
  ['typo inside a category', 'midjourny', 'image', ['Midjourney']],
];

/** The corpus as seeds, listed a minute apart in corpus order, the first a day ago. */
export function relevanceCorpus(): ToolSeed[] {
  const base = Date.now() - 24 * 3600_000;
  return corpus.map(([name, description, categories, flags], i) => ({
    name,
    description,
    categories,
    isFeature: flags?.featured,
    isSponsor: flags?.sponsored,
    publishedAt: new Date(base + i * 60_000),
  }));
}

/** Every name of the corpus. */
export const corpusNames = (): string[] => corpus.map(([name]) => name);
