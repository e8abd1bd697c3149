/** The built-in operation that ends a workflow run early (CONTRACT §13); the runner gives its log the status `stop`. */
export const FLOW_STOP = "flow.stop";
