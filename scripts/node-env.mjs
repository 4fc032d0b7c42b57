// Runs `fn` with NODE_ENV set to `value`, then puts back exactly what was there: an unset variable
// stays unset (assigning undefined to process.env would store the string "undefined", which the
// server's configuration then refuses, as `npm start` did once after building).
export async function withNodeEnv(value, fn) {
  const had = Object.prototype.hasOwnProperty.call(process.env, 'NODE_ENV');
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = value;
  try {
    return await fn();
  } finally {
    if (had) process.env.NODE_ENV = previous;
    else delete process.env.NODE_ENV;
  }
}
