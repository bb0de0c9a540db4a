"use client";

import { useFormStatus } from "react-dom";
import { loadDemoAction } from "@/app/corpora/actions";

function Submit() {
  const { pending } = useFormStatus();
  return (
    <button
      type="submit"
      disabled={pending}
      className="rounded-md bg-accent px-4 py-2 font-medium text-white hover:bg-accent/90 disabled:opacity-60"
    >
      {pending ? "Starting…" : "Load the demo corpus"}
    </button>
  );
}

/** Thirty short fictional news items, enough to try search and a debate in a minute. */
export function LoadDemoButton() {
  return (
    <form action={loadDemoAction}>
      <Submit />
    </form>
  );
}
