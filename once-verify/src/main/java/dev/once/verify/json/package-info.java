/** Every JSON read of once-verify goes through Jackson, here; nothing reads JSON by hand. */
package dev.once.verify.json;
