// Remembers Error.stackTraceLimit before mvdan-sh loads: its GopherJS runtime sets it to
// Infinity, which would make every later Error in the process capture a full stack.
// V8 and workerd both have the property; the ES lib typings do not declare it.
export const errorWithLimit = Error as ErrorConstructor & { stackTraceLimit?: number };
export const savedStackTraceLimit = errorWithLimit.stackTraceLimit;
