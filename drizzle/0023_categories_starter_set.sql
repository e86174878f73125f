-- The starter set of categories for an AI tool directory (docs/mcp-and-search.md "Categories"). Operators may
-- rename, describe or delete them afterwards; ON CONFLICT DO NOTHING keeps an operator's own row of the same slug.
INSERT INTO "categories" ("slug", "name", "description") VALUES
  ('writing', 'Writing', 'Drafting, editing and rewriting text: copy, articles, e-mails.'),
  ('image', 'Image', 'Generating, editing and upscaling images.'),
  ('video', 'Video', 'Generating, editing and captioning video.'),
  ('audio', 'Audio', 'Speech, voice, music and transcription.'),
  ('code', 'Code', 'Writing, reviewing and explaining code.'),
  ('chat', 'Chat', 'Chatbots and conversational assistants.'),
  ('productivity', 'Productivity', 'Notes, meetings, scheduling and everyday work.'),
  ('marketing', 'Marketing', 'Ads, SEO, social media and campaigns.'),
  ('research', 'Research', 'Searching, reading and summarising sources.'),
  ('data', 'Data', 'Analysing, cleaning and visualising data.'),
  ('design', 'Design', 'Interfaces, logos, presentations and layouts.'),
  ('education', 'Education', 'Learning, tutoring and teaching.')
ON CONFLICT ("slug") DO NOTHING;
