/** What every surface may load of this method (client-safe): its definition. Listed through lib/debate/methods.json. */
export { proclaimDefinition as definition } from "./definition";
