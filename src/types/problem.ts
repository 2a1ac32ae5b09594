/** A problem found in a flow config: where (a JSON path such as `nodes[2].config.url`) and what. */
export interface Problem {
  path: string;
  message: string;
}
