import type { AllowList } from "@/lib/net/address-policy";
import { httpNer } from "./http";
import { ruleNer } from "./rule";
import { NerError, type NerProvider, type NerProviderId } from "./types";

export { ruleNer, RULE_CONFIDENCE } from "./rule";
export { httpNer } from "./http";
export * from "./types";

export type NerSettings = { provider: NerProviderId; url?: string };

/** The provider a debate's NER step uses; `http` without NER_URL is refused in words, never silently swapped for the rule-based one. */
export function nerProviderFor(id: NerProviderId, settings: { url?: string; allow?: AllowList }): NerProvider {
  switch (id) {
    case "rule":
      return ruleNer();
    case "http":
      if (!settings.url)
        throw new NerError(
          "This debate recognises entities with an NER endpoint, but NER_URL is not set on this server; set it, or start a new debate with NER_PROVIDER=rule.",
        );
      return httpNer({ url: settings.url, allow: settings.allow });
  }
}
