import type { MethodViews } from "@/components/debate/method-views";
import { ZofiaDebate } from "./zofia-debate";
import { ZofiaFields } from "./zofia-fields";

/** ZoFia: a page of its own (the pipeline) and its own form fields. */
export const views: MethodViews = {
  Debate: ZofiaDebate,
  FormFields: (p) => <ZofiaFields corpora={p.corpora} defaultCorpus={p.values.corpus} />,
};
