/**
 * The closed-loop load runner: platform threads, each with its own operation, a warm-up that is not
 * reported, then a measured window that counts only the operations that started and ended in it,
 * with the CPU clocks read at its edges.
 */
package dev.once.verify.load;
