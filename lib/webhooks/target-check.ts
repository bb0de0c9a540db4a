import { getConfig } from "@/lib/config";
import { checkUrl, FetchError, type Resolver } from "@/lib/net/safe-fetch";

/*
 * A webhook target is checked when it is saved as well as on every delivery. Saving resolves the
 * name and refuses it when any of its addresses is loopback, private, link-local or otherwise not
 * public (the same policy as every fetch, lib/net/address-policy.ts), so an admin hears at once
 * that `http://localhost./hook` will never be sent anything. The name may point elsewhere later
 * (DNS rebinding), so delivery checks again and connects to the very address it checked
 * (lib/net/safe-fetch.ts pins it); this check is for the admin, delivery's is the guard.
 */

/** Null when the target may be saved; otherwise what is wrong with it, in words for the form. */
export async function webhookTargetRefusal(url: string, resolve?: Resolver): Promise<string | null> {
  try {
    await checkUrl(url, { allow: getConfig().fetch.allow, resolve });
    return null;
  } catch (e) {
    if (!(e instanceof FetchError)) throw e;
    const host = new URL(url).host;
    if (e.reason === "refused-address")
      // Which range is kept for the logs (e.detail), as for every fetch: the answer does not map the network.
      return `${host} resolves to an address on a private or local network (or this server itself), where webhooks are not sent for safety. Use the receiver's public address; an administrator can allow intranet hosts with FETCH_ALLOW_HOSTS.`;
    if (e.reason === "no-such-host")
      return `${host} does not resolve (no such name): check the address for typos; nothing was saved.`;
    return e.message;
  }
}
