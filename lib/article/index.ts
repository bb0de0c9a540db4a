export { ArticleError, extractArticle, isoDay, type ExtractedArticle } from "./extract";
export { fetchArticle, type FetchArticleOptions, type FetchedArticle } from "./fetch";
export { ARTICLE_MAX_BYTES, ARTICLE_MAX_CHARS, cutText } from "./limits";
