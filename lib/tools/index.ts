/** The engine's search tools: what protocols import. See docs/configuration.md, "Search tools". */
export { SearchToolError, type SearchFailure } from "./errors";
export {
  callSearch,
  replaySearch,
  toolCallRecordSchema,
  ToolCallFailed,
  type FailedToolCall,
  type SucceededToolCall,
  type ToolCallRecord,
} from "./record";
export { corpusProvider, corpusStandInProvider } from "./providers/corpus";
export { toolRecordFromTurn, toolTurnFields } from "./turn";
export {
  corpusToolSnapshot,
  providerFor,
  resolveSearchProvider,
  SearchConfigError,
  searchToolSnapshot,
  searchToolSnapshotSchema,
  type ResolveDeps,
  type SearchToolSnapshot,
} from "./resolve";
export {
  MAX_K,
  PROVIDER_LABELS,
  SEARCH_PROVIDER_IDS,
  searchRequestSchema,
  STAND_IN_LABEL,
  type SearchOutcome,
  type SearchProvider,
  type SearchProviderName,
  type SearchRequest,
  type SearchRequestInput,
  type SearchResult,
} from "./types";
