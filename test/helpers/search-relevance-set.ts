import type { ToolSeed } from './live-tools';

// The relevance set of directory search (docs/mcp-and-search.md "Ranking"): a directory of 90 AI tools and, for each of
// over a hundred queries, the results a person would expect first. Run through REST on PGlite
// (test/functions/v1/tools/search-relevance.test.ts) and on PostgreSQL through Neon's HTTP driver
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

// Tools listed before all of the above (older, so they never outrank the tools above among equal matches): more of
// the directory's facets, for the judged queries below.
const olderTools: Array<[string, string, string[]]> = [
  ['Whisper Notes', 'Turns voice memos into searchable notes.', ['audio', 'productivity']],
  ['Podcastle', 'Record and edit podcasts in the browser.', ['audio']],
  ['Rev Transcription', 'Human and machine transcription of interviews.', ['audio', 'productivity']],
  ['Looka', 'Logo maker for small businesses.', ['design', 'marketing']],
  ['Illustroke', 'Vector illustrations from text prompts.', ['image', 'design']],
  ['Storybook Illustrator', 'Illustrations for children’s books.', ['image']],
  ['Surfer SEO', 'Optimize articles to rank in search engines.', ['marketing', 'writing']],
  ['AdCreative', 'Generates ad creatives and banners that convert.', ['marketing', 'image']],
  ['Text2SQL', 'Write SQL queries from plain English questions.', ['data', 'code']],
  ['Tableau Pulse', 'Explains changes in your dashboards and metrics.', ['data']],
  ['Quizlet Tutor', 'Quizzes you on your study sets.', ['education', 'chat']],
  ['Socratic', 'Homework help with step-by-step explanations.', ['education']],
  ['Reclaim', 'Schedules tasks and habits around your meetings.', ['productivity']],
  ['Motion Planner', 'Plans your day and your team’s projects automatically.', ['productivity']],
  ['Mem', 'A notes app that organizes itself.', ['productivity', 'writing']],
  ['Scite', 'See how research papers cite each other.', ['research']],
  ['ResearchRabbit', 'Discover related papers and authors.', ['research']],
  ['Murf Studio', 'Studio-quality voiceovers from text.', ['audio', 'video']],
  ['HeyGen', 'Talking avatar videos in many languages.', ['video']],
  ['Kaiber', 'Turn music into animated clips.', ['video', 'audio']],
  ['Sourcegraph Cody', 'Answers questions about your codebase.', ['code', 'chat']],
  ['Warp Terminal', 'A terminal with command search built in.', ['code']],
  ['Poe', 'Talk to many models in one app.', ['chat']],
  ['Replika', 'A companion that listens.', ['chat']],
  ['Notably', 'Synthesize user interviews into insights.', ['research', 'design']],
  ['Framer Sites', 'Generates and publishes websites from a prompt.', ['design', 'code']],
  ['Lalal Splitter', 'Separates vocals and instruments from any song.', ['audio']],
  ['Fathom Recorder', 'Free meeting recorder with summaries.', ['productivity', 'audio']],
  ['Speechify', 'Reads documents aloud in natural voices.', ['audio', 'education']],
  ['Upscayl', 'Upscale low resolution images.', ['image']],
];

/**
 * [what the case shows, query, category, the results a person expects, best first]. Each case is judged twice: the
 * first results must be exactly the expected ones in order when `strict` (the rules of docs/mcp-and-search.md
 * "Ranking": the top three, or all results when fewer are expected), and every case counts toward precision at 5 and
 * mean reciprocal rank over the whole set (search-relevance-metrics.ts), which may never fall below `recordedQuality`.
 */
export interface RelevanceCase {
  why: string;
  query: string;
  category?: string;
  expected: string[];
  strict: boolean;
}

const rules: Array<[string, string, string | undefined, string[]]> = [
  // Exact names come first, even over newer or featured tools whose names share the words.
  ['exact name', 'chatgpt', undefined, ['ChatGPT']],
  ['exact two-word name before other names with its words', 'notion ai', undefined, ['Notion AI']],
  ['exact name before a newer featured near-match', 'summarize anything', undefined, ['Summarize Anything']],
  [
    'exact name before a longer name that contains it, then the category the word names',
    'writer',
    undefined,
    ['Writer', 'Lex Writer', 'Wordtune'],
  ],
  // ("now" is an English stop word, so the other translator matches the query's one real word.)
  [
    'exact name, case-insensitive, before a name with the same stem',
    'TRANSLATE NOW',
    undefined,
    ['Translate Now', 'DeepL Translator'],
  ],
  // Every word in the name ranks above the words in the description only, which rank above a category match.
  [
    'name match above a newer description match, then the category the word names',
    'music',
    undefined,
    ['Suno Music', 'Udio', 'Kaiber'],
  ],
  [
    'name match above description match above the category the word names',
    'spreadsheet',
    undefined,
    ['Rows Spreadsheet AI', 'Julius Data', 'Tableau Pulse'],
  ],
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
    ['ElevenLabs Voice', 'Voiceflow', 'Speechify'],
  ],
  [
    'a whole word of a name before a newer name it only begins',
    'copy',
    undefined,
    ['Copy AI', 'GitHub Copilot', 'Jasper Marketing'],
  ],
  // Words typed halfway.
  ['prefix of a name word', 'transcr', undefined, ['Otter Transcribe', 'Rev Transcription', 'Descript']],
  [
    'prefix of a name, then the category the word names',
    'photo',
    undefined,
    ['Photoroom', 'Background Eraser', 'Dream Canvas'],
  ],
  ['prefix of the last of two words', 'gamma sli', undefined, ['Gamma Slides']],
  ['prefix matches names first', 'chat', undefined, ['ChatGPT', 'Voiceflow', 'Character AI']],
  // Description matches, several words, stemming.
  [
    'two description words, then a description word and a category',
    'image generation',
    undefined,
    ['Stable Diffusion Web', 'Midjourney', 'AdCreative'],
  ],
  [
    'description words in any order and form',
    'generate images',
    undefined,
    ['Stable Diffusion Web', 'Midjourney', 'AdCreative'],
  ],
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
  // Typos: the words match nothing, so a corrected query is searched.
  ['typo in a one-word name', 'chatgtp', undefined, ['ChatGPT']],
  ['typo in a one-word name', 'midjourny', undefined, ['Midjourney']],
  ['typo in a one-word name', 'synthesa', undefined, ['Synthesia']],
  ['swapped letters in the second word of a name', 'otter transcirbe', undefined, ['Otter Transcribe']],
  ['typo in a name word', 'perplexty', undefined, ['Perplexity']],
  ['typo in a description word, with a name word', 'metting notes', undefined, ['Fireflies Meeting Notes']],
  [
    'typo in a description word, then the category the corrected word names',
    'ilustrations',
    undefined,
    ['Storybook Illustrator', 'Illustroke', 'Background Eraser'],
  ],
  // Category names and synonyms find their tools, below every text match.
  ['a category name finds the category', 'audio', undefined, ['Krisp', 'Udio', 'Suno Music']],
  [
    'a synonym finds its category, after the text matches',
    'transcription',
    undefined,
    ['Rev Transcription', 'Descript', 'Krisp'],
  ],
  // Category-filtered.
  ['category keeps only its tools', 'video', 'marketing', ['Lumen5', 'Pictory']],
  ['category keeps only its tools', 'video', 'audio', ['Descript', 'Kaiber', 'Murf Studio']],
  ['category keeps only its tools', 'generate', 'video', ['Runway Video']],
  ['category drops name matches outside it', 'chat', 'code', ['Codeium', 'Sourcegraph Cody']],
  ['category with a name match', 'writer', 'writing', ['Writer', 'Lex Writer', 'Wordtune']],
  ['category, empty query: newest first', '', 'research', ['Phind', 'Harvey Legal', 'Summarize Anything']],
  ['typo inside a category', 'midjourny', 'image', ['Midjourney']],
];

// Queries as readers type them, with the tools a person would want near the top: the metrics, not the exact order.
const judged: Array<[string, string, string | undefined, string[]]> = [
  ['a tool by name', 'otter', undefined, ['Otter Transcribe']],
  ['a tool by name', 'cursor', undefined, ['Cursor']],
  ['a tool by name', 'canva', undefined, ['Canva Magic Design']],
  ['a tool by name', 'krisp', undefined, ['Krisp']],
  ['a tool by name', 'looka', undefined, ['Looka']],
  ['a tool by name', 'poe', undefined, ['Poe']],
  ['a tool by name', 'heygen', undefined, ['HeyGen']],
  ['a tool by name', 'fathom', undefined, ['Fathom Recorder']],
  ['a tool by name, lower-case', 'elevenlabs', undefined, ['ElevenLabs Voice']],
  ['a tool by its full name', 'surfer seo', undefined, ['Surfer SEO']],
  ['a tool by its full name with a number', 'lumen5', undefined, ['Lumen5']],
  ['a tool by its name with digits', 'text2sql', undefined, ['Text2SQL']],
  ['a name typed halfway', 'eleven', undefined, ['ElevenLabs Voice']],
  ['a name typed halfway', 'synth', undefined, ['Synthesia']],
  ['a name typed halfway', 'perplex', undefined, ['Perplexity']],
  ['a name typed halfway', 'research', undefined, ['Elicit Research', 'ResearchRabbit', 'Consensus', 'Scite']],
  ['a name typed halfway', 'quill', undefined, ['QuillBot Paraphraser']],
  ['a name with a typo', 'grammarley', undefined, ['Grammarly']],
  ['a name with a typo', 'grammerly', undefined, ['Grammarly']],
  ['a name with a typo', 'desript', undefined, ['Descript']],
  ['a name with a typo', 'jaspr', undefined, ['Jasper Marketing']],
  ['a name with a typo', 'pictroy', undefined, ['Pictory']],
  ['a name with a typo', 'tabnie', undefined, ['Tabnine']],
  ['a name with a typo', 'copilto', undefined, ['GitHub Copilot']],
  ['a name with a typo', 'claud', undefined, ['Claude']],
  ['a name with a typo', 'speechfy', undefined, ['Speechify']],
  ['a name with two typos', 'perplexxty', undefined, ['Perplexity']],
  ['a description word', 'podcasts', undefined, ['Podcastle', 'Descript']],
  ['a description word', 'avatars', undefined, ['Synthesia', 'HeyGen']],
  ['a description word', 'presentations', undefined, ['Canva Magic Design', 'Gamma Slides', 'Tome', 'Beautiful AI']],
  ['a description word', 'slides', undefined, ['Gamma Slides', 'Beautiful AI']],
  ['a description word', 'translation', undefined, ['DeepL Translator', 'Translate Now']],
  ['a description word', 'tutor', undefined, ['Khanmigo Tutor', 'Quizlet Tutor']],
  ['a description word', 'homework', undefined, ['Socratic']],
  ['a description word', 'interviews', undefined, ['Otter Transcribe', 'Rev Transcription', 'Notably']],
  ['a description word', 'email', undefined, ['Superhuman Mail', 'Lavender Email Coach', 'Copy AI']],
  ['a description word', 'songs', undefined, ['Suno Music', 'Lalal Splitter']],
  ['a description word', 'upscale', undefined, ['Upscayl']],
  ['a description word', 'dashboards', undefined, ['Tableau Pulse']],
  ['a description word', 'websites', undefined, ['Framer Sites']],
  ['a description word', 'logo', undefined, ['Looka']],
  ['a description word', 'sql', undefined, ['Text2SQL']],
  ['a description word', 'terminal', undefined, ['Warp Terminal']],
  ['a description word', 'companion', undefined, ['Replika']],
  ['a description word', 'papers', undefined, ['Elicit Research', 'Consensus', 'Scite', 'ResearchRabbit']],
  ['a description word', 'schedule', undefined, ['Notion Calendar', 'Reclaim']],
  ['a description word', 'automate', undefined, ['Zapier Automations']],
  ['a description word', 'paraphrase', undefined, ['QuillBot Paraphraser']],
  ['a description word', 'noise', undefined, ['Krisp']],
  ['a description word', 'vocals', undefined, ['Lalal Splitter']],
  ['a description word', 'voiceovers', undefined, ['Murf Studio']],
  ['two description words', 'meeting recorder', undefined, ['Fathom Recorder', 'Fireflies Meeting Notes']],
  ['two description words', 'meeting summaries', undefined, ['Meeting Summarizer Pro', 'Fathom Recorder']],
  ['two description words', 'sales emails', undefined, ['Lavender Email Coach', 'Copy AI']],
  ['two description words', 'marketing copy', undefined, ['Jasper Marketing', 'Copy AI']],
  ['two description words', 'social media', undefined, ['Lumen5']],
  ['two description words', 'product photos', undefined, ['Photoroom']],
  ['two description words', 'research papers', undefined, ['Elicit Research', 'Scite', 'Consensus']],
  ['two description words', 'text to speech', undefined, ['ElevenLabs Voice', 'Speechify', 'Murf Studio']],
  ['two description words', 'ai avatars', undefined, ['Synthesia', 'HeyGen']],
  ['two description words', 'code editor', undefined, ['Cursor', 'GitHub Copilot']],
  ['two description words', 'voice cloning', undefined, ['ElevenLabs Voice']],
  ['two description words', 'study sets', undefined, ['Quizlet Tutor']],
  ['two description words', 'blog videos', undefined, ['Pictory']],
  ['three description words', 'summarize research papers', undefined, ['Elicit Research']],
  ['a question', 'record meetings', undefined, ['Fireflies Meeting Notes', 'Fathom Recorder', 'Otter Transcribe']],
  ['a question', 'turn sketches into designs', undefined, ['Uizard']],
  ['a description word with a typo', 'transcibe', undefined, ['Otter Transcribe', 'Descript']],
  [
    'a description word with a typo',
    'presentaions',
    undefined,
    ['Canva Magic Design', 'Gamma Slides', 'Tome', 'Beautiful AI'],
  ],
  ['a description word with a typo', 'grammer', undefined, ['Grammarly']],
  ['a description word with a typo', 'podcats', undefined, ['Podcastle', 'Descript']],
  ['a description word with a typo', 'summarise papers', undefined, ['Elicit Research']],
  ['a description word with a typo', 'backgrund remover', undefined, ['Background Eraser', 'Photoroom']],
  ['a description word with a typo', 'homwork', undefined, ['Socratic']],
  ['a description word with a typo', 'voiceovrs', undefined, ['Murf Studio']],
  ['a description word with two typos', 'ilustratons', undefined, ['Storybook Illustrator', 'Illustroke']],
  [
    'a category name',
    'productivity',
    undefined,
    ['Superhuman Mail', 'Zapier Automations', 'Krisp', 'Gamma Slides', 'Meeting Summarizer Pro'],
  ],
  [
    'a category name',
    'image',
    undefined,
    ['Midjourney', 'Stable Diffusion Web', 'Dream Canvas', 'Background Eraser', 'Photoroom'],
  ],
  ['a category name', 'design', undefined, ['Figma AI', 'Uizard', 'Canva Magic Design', 'Voiceflow']],
  ['a category name', 'education', undefined, ['Khanmigo Tutor', 'Duolingo Max', 'Socratic', 'Quizlet Tutor']],
  ['a category name', 'marketing', undefined, ['Jasper Marketing', 'Copy AI', 'Lavender Email Coach', 'Writesonic']],
  ['a category name', 'video', undefined, ['Runway Video', 'Synthesia', 'Descript', 'Lumen5', 'Pictory']],
  ['a category name', 'code', undefined, ['GitHub Copilot', 'Cursor', 'Tabnine', 'Codeium', 'Replit Agent']],
  ['a category name', 'data', undefined, ['Julius Data', 'Rows Spreadsheet AI', 'Text2SQL', 'Tableau Pulse']],
  ['a category name with a typo', 'audoi', undefined, ['Krisp', 'Udio', 'Suno Music']],
  [
    'a category name with a typo',
    'eduaction',
    undefined,
    ['Khanmigo Tutor', 'Duolingo Max', 'Socratic', 'Quizlet Tutor'],
  ],
  ['a synonym', 'podcast', undefined, ['Podcastle', 'Descript']],
  ['a synonym', 'chatbot', undefined, ['ChatGPT', 'Claude', 'Character AI', 'Pi Assistant', 'Voiceflow', 'Poe']],
  ['a synonym', 'programming', undefined, ['GitHub Copilot', 'Cursor', 'Tabnine', 'Codeium', 'Replit Agent']],
  ['a synonym', 'analytics', undefined, ['Julius Data', 'Tableau Pulse', 'Rows Spreadsheet AI']],
  ['a synonym', 'advertising', undefined, ['AdCreative', 'Jasper Marketing', 'Copy AI']],
  ['a synonym', 'academic', undefined, ['Elicit Research', 'Consensus', 'Scite', 'Perplexity']],
  ['a synonym', 'students', undefined, ['Khanmigo Tutor', 'Socratic', 'Quizlet Tutor', 'Duolingo Max']],
  ['a synonym', 'calendar', undefined, ['Notion Calendar', 'Reclaim', 'Motion Planner']],
  ['a synonym', 'speech', undefined, ['ElevenLabs Voice', 'Speechify', 'Murf Studio', 'Otter Transcribe']],
  ['a synonym with a typo', 'transcripton', undefined, ['Rev Transcription', 'Otter Transcribe', 'Descript']],
  ['a word and a category name', 'free code', undefined, ['Codeium']],
  ['a word and a category name', 'meeting audio', undefined, ['Otter Transcribe', 'Fathom Recorder']],
  ['a word and a synonym', 'music video', undefined, ['Kaiber']],
  ['a word and a synonym', 'legal writer', undefined, ['Spellbook', 'Harvey Legal']],
  ['within a category', 'notes', 'productivity', ['Fireflies Meeting Notes', 'Notion AI', 'Mem', 'Whisper Notes']],
  ['within a category', 'edit', 'video', ['Descript', 'Runway Video']],
  ['within a category', 'search', 'research', ['Perplexity', 'Consensus', 'Phind']],
  ['within a category', 'voice', 'audio', ['ElevenLabs Voice', 'Whisper Notes', 'Speechify']],
  ['within a category, a typo', 'paprs', 'research', ['Elicit Research', 'Consensus', 'Scite', 'ResearchRabbit']],
  // A tool of a listing's MCP server (relevanceMcpServers below) finds the listing, however the name is written, in the
  // tier below every text match.
  ['an MCP tool name as the server writes it', 'create_pull_request', undefined, ['GitHub Copilot']],
  ['an MCP tool name in words', 'create pull request', undefined, ['GitHub Copilot']],
  ['an MCP tool name in camel case', 'searchPages', undefined, ['Notion AI']],
  ['an MCP tool name no text holds', 'get design context', undefined, ['Figma AI']],
  ['an MCP tool name within a category', 'run zap', 'productivity', ['Zapier Automations']],
  ['an MCP tool name below the text match of its words', 'search code', undefined, ['Phind', 'GitHub Copilot']],
];

export const relevanceCases: RelevanceCase[] = [
  ...rules.map(([why, query, category, expected]) => ({ why, query, category, expected, strict: true })),
  ...judged.map(([why, query, category, expected]) => ({ why, query, category, expected, strict: false })),
];

/**
 * The quality the set had when it was last judged (test/functions/v1/tools/search-relevance.test.ts fails below it;
 * `npm run bench -- search` prints the current values). Raise them when search gets better, never lower them.
 */
export const recordedQuality = { precisionAt5: 0.9596, meanReciprocalRank: 0.9767 };

/** The corpus as seeds, listed a minute apart in corpus order, the first a day ago. */
export function relevanceCorpus(): ToolSeed[] {
  const base = Date.now() - 24 * 3600_000;
  const all: typeof corpus = [...olderTools, ...corpus];
  return all.map(([name, description, categories, flags], i) => ({
    name,
    description,
    categories,
    isFeature: flags?.featured,
    isSponsor: flags?.sponsored,
    publishedAt: new Date(base + i * 60_000),
  }));
}

/**
 * The remote MCP servers of some corpus tools, by tool name: each reachable at its last probe, listing these tools
 * (seeded by ./search-relevance-seed.ts).
 */
export const relevanceMcpServers: Record<string, string[]> = {
  'GitHub Copilot': ['create_pull_request', 'search_code', 'list_issues'],
  'Notion AI': ['search_pages', 'create_page'],
  'Figma AI': ['get_design_context', 'get_screenshot'],
  'Zapier Automations': ['run_zap', 'list_zaps'],
  Perplexity: ['perplexity_ask'],
};

/** Every name of the corpus. */
export const corpusNames = (): string[] => [...olderTools, ...corpus].map(([name]) => name);
