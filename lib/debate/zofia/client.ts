/** What every surface may load of this method (client-safe): its definition. Listed through lib/debate/methods.json. */
export { zofiaDefinition as definition } from "./definition";
