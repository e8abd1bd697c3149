import { oauthSection, rotationAndErrors, whiteLabelSteps } from "@/lib/platforms/google/marketing-docs";

// Plain-markdown page served at /docs/connections/youtube.md.

const SCOPES = [
  "https://www.googleapis.com/auth/youtube.force-ssl",
  "https://www.googleapis.com/auth/yt-analytics.readonly",
];

export const youtubeDocs = `# YouTube

Reads your YouTube channels, recent videos with their statistics and YouTube Analytics reports, and changes a video's title or description, through the **YouTube Data API v3** and the **YouTube Analytics API v2**.

- **Reads**: the channels of the Google account (subscribers, views, video count); the latest uploads with views, likes and comments; Analytics reports (views, watch time, likes, subscribers … per day, month, video, country, device or traffic source) for the channel or one video.
- **Writes**: the title and/or description of one video (\`videos.update\` with \`part=snippet\`). The rest of the snippet (category, tags, languages) is read first and sent back unchanged, since YouTube replaces the whole snippet.

Each call spends YouTube Data API quota of the Google Cloud project (10,000 units a day by default; \`videos.update\` costs 50).

${oauthSection(SCOPES)}

${whiteLabelSteps("YouTube Data API v3** and **YouTube Analytics API", SCOPES, "the Google account that owns (or manages) the channel")}

## Scopes

- \`https://www.googleapis.com/auth/youtube.force-ssl\`: see, edit and delete your YouTube videos, ratings, comments and captions; Google lists it for every Data API call Patchbay makes, including the title and description change.
- \`https://www.googleapis.com/auth/yt-analytics.readonly\`: read YouTube Analytics reports.

Patchbay checks white-label credentials by reading the account's channel (\`GET https://www.googleapis.com/youtube/v3/channels?part=snippet&mine=true\`).

${rotationAndErrors("youtube", SCOPES)}
`;
