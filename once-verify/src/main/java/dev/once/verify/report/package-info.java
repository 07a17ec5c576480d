/**
 * How results are written: terminal tables, Markdown, JSON and SVG charts, and the {@link
 * dev.once.verify.report.Verdict} rows of chaos's verdict table and of the goals ({@code
 * stats.Goal}). Writers only format what they are given; they measure nothing.
 */
package dev.once.verify.report;
