"use client";

import { useFormStatus } from "react-dom";
import { loadDemoAction } from "@/app/corpora/actions";
import { SubmitButton } from "@/components/ui/button";

function Submit() {
  const { pending } = useFormStatus();
  return (
    <SubmitButton pending={pending} busy="Starting…" look="accent">
      Load the demo corpus
    </SubmitButton>
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
