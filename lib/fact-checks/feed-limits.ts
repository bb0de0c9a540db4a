/** How many of the newest published fact-checks a feed carries. */
export const FEED_SIZE = 200;

export const FEED_NEEDS_URL =
  "The feed needs the site's public address for its links: set PUBLIC_URL, e.g. PUBLIC_URL=https://factcheck.example.org.";
