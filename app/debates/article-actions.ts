"use server";

import { getDb } from "@/db/client";
import { hit } from "@/db/queries/rate-limits";
import { ArticleError, fetchArticle } from "@/lib/article";
import { AuthError } from "@/lib/auth/policy";
import { requirePermission } from "@/lib/auth/server";

/** What the article form shows after "Fetch from address": the article's fields, or why there are none. */
export type FetchArticleState =
  | {
      ok: true;
      url: string;
      finalUrl: string;
      title: string;
      text: string;
      publishedDate: string | null;
      truncated: boolean;
      originalChars: number;
      siteName: string | null;
    }
  | { ok: false; error: string };

/** Fetches per person per window: each one is a request this server sends for them. */
const FETCH_LIMIT = 30;
const FETCH_WINDOW_SECONDS = 10 * 60;

/**
 * Fetches a news page for the new-debate form. Used on /debates/new, so the proxy lets through
 * only those who may open that page (debate:start); the action checks the permission itself
 * because an action can be posted to any page. The fetch goes through lib/article (the SSRF
 * rules of URL ingestion); nothing is stored.
 */
export async function fetchArticleAction(url: string): Promise<FetchArticleState> {
  try {
    const user = await requirePermission("debate:start");
    if (typeof url !== "string" || !url.trim())
      return { ok: false, error: "Type or paste the article's address (https://…) first." };
    if (url.length > 2048)
      return {
        ok: false,
        error: "That address is longer than 2,048 characters; copy it again from the browser's address bar.",
      };
    const { db } = await getDb();
    const rate = await hit(db, `article-fetch:user:${user.id}`, FETCH_LIMIT, FETCH_WINDOW_SECONDS);
    if (!rate.allowed)
      return {
        ok: false,
        error: `You have fetched ${FETCH_LIMIT} pages in ten minutes. Try again in ${Math.ceil(rate.retryAfterSeconds / 60)} minutes, or paste the article's text.`,
      };
    const a = await fetchArticle(url);
    return {
      ok: true,
      url: a.url,
      finalUrl: a.finalUrl,
      title: a.title,
      text: a.text,
      publishedDate: a.publishedDate,
      truncated: a.truncated,
      originalChars: a.originalChars,
      siteName: a.siteName,
    };
  } catch (e) {
    if (e instanceof ArticleError || e instanceof AuthError) return { ok: false, error: e.message };
    console.error("[article] fetch failed:", e);
    return { ok: false, error: "The page could not be read. Paste the article's text instead." };
  }
}
