package dev.once.json;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.Arrays;

/**
 * Strict single-pass RFC 8259 parser that writes the canonical form while it reads. Nesting is
 * tracked on an explicit stack, never on the Java stack. Not thread-safe: one instance per input.
 */
final class JsonParser {
  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
  private static final byte[] NULL = {'n', 'u', 'l', 'l'};
  private final byte[] in;
  private final int end;
  private final int maxDepth;
  private final boolean exactNumbers;
  private final CanonicalOutput out;
  private final MemberTable members = new MemberTable();
  private int pos;
  private int depth;
  private boolean[] isObject = new boolean[16];
  private int[] memberBase = new int[16];

  JsonParser(byte[] in, int maxDepth, boolean exactNumbers) {
    this.in = in;
    this.end = in.length;
    this.maxDepth = maxDepth;
    this.exactNumbers = exactNumbers;
    this.out = new CanonicalOutput(in.length);
  }

  byte[] run() {
    if (end >= 3 && in[0] == (byte) 0xEF && in[1] == (byte) 0xBB && in[2] == (byte) 0xBF) {
      throw MalformedJsonException.at(0, "a byte order mark is not allowed");
    }
    skipWhitespace();
    if (pos == end) {
      throw MalformedJsonException.at(pos, "the input contains no JSON value");
    }
    boolean expectValue = true;
    while (true) {
      if (expectValue && parseValue()) {
        continue; // a non-empty container was opened; its first value follows
      }
      skipWhitespace();
      if (depth == 0) {
        if (pos != end) {
          throw MalformedJsonException.at(pos, "unexpected data follows the JSON value");
        }
        return out.toByteArray();
      }
      expectValue = afterValueInContainer();
    }
  }

  /** Parses one value; returns true if it opened a non-empty array or object. */
  private boolean parseValue() {
    if (pos == end) {
      throw MalformedJsonException.at(pos, "the input ends where a value was expected");
    }
    byte b = in[pos];
    switch (b) {
      case '{':
        return openObject();
      case '[':
        return openArray();
      case '"':
        parseString(false);
        return false;
      case 't':
        literal(TRUE);
        return false;
      case 'f':
        literal(FALSE);
        return false;
      case 'n':
        literal(NULL);
        return false;
      case ']':
      case '}':
        throw MalformedJsonException.at(pos, "a value was expected before the closing bracket");
      default:
        if (b == '-' || NumberLiteral.isDigit(b)) {
          parseNumber();
          return false;
        }
        throw MalformedJsonException.at(pos, "a JSON value was expected");
    }
  }

  private void parseNumber() {
    NumberLiteral literal = NumberLiteral.scan(in, pos, end);
    if (exactNumbers) {
      ExactNumbers.write(in, literal, out);
    } else {
      DoubleNumbers.write(in, literal, out);
    }
    pos = literal.end();
  }

  private boolean openArray() {
    push(false);
    pos++;
    out.write('[');
    skipWhitespace();
    if (pos < end && in[pos] == ']') {
      pos++;
      out.write(']');
      depth--;
      return false;
    }
    return true;
  }

  private boolean openObject() {
    push(true);
    pos++;
    out.write('{');
    skipWhitespace();
    if (pos < end && in[pos] == '}') {
      pos++;
      out.write('}');
      depth--;
      return false;
    }
    beginMember();
    return true;
  }

  private void push(boolean object) {
    if (depth >= maxDepth) {
      throw new JsonTooDeepException(pos, maxDepth);
    }
    if (depth == isObject.length) {
      isObject = Arrays.copyOf(isObject, depth * 2);
      memberBase = Arrays.copyOf(memberBase, depth * 2);
    }
    isObject[depth] = object;
    memberBase[depth] = members.size();
    depth++;
  }

  /** Handles what follows a value inside a container; returns true if another value follows. */
  private boolean afterValueInContainer() {
    boolean object = isObject[depth - 1];
    if (pos == end) {
      throw MalformedJsonException.at(
          pos, object ? "the input ends inside an object" : "the input ends inside an array");
    }
    byte b = in[pos];
    if (object) {
      members.endLast(out.length());
      if (b == ',') {
        pos++;
        out.write(',');
        skipWhitespace();
        beginMember();
        return true;
      }
      if (b == '}') {
        pos++;
        depth--;
        members.closeObject(memberBase[depth], out);
        out.write('}');
        return false;
      }
      throw MalformedJsonException.at(pos, "a comma or '}' was expected after an object member");
    }
    if (b == ',') {
      pos++;
      out.write(',');
      skipWhitespace();
      return true;
    }
    if (b == ']') {
      pos++;
      out.write(']');
      depth--;
      return false;
    }
    throw MalformedJsonException.at(pos, "a comma or ']' was expected after an array element");
  }

  /** Parses {@code "name" :} and registers the member; the value is parsed next. */
  private void beginMember() {
    if (pos == end || in[pos] != '"') {
      throw MalformedJsonException.at(pos, "a property name in double quotes was expected");
    }
    int nameOffset = pos;
    int outputStart = out.length();
    String name = parseString(true);
    skipWhitespace();
    if (pos == end || in[pos] != ':') {
      throw MalformedJsonException.at(pos, "a colon was expected after the property name");
    }
    pos++;
    out.write(':');
    skipWhitespace();
    members.add(name, outputStart, nameOffset);
  }

  /**
   * Parses a string at {@code pos} (the opening quote), writes its canonical form and, if {@code
   * wantName}, returns its unescaped value.
   */
  private String parseString(boolean wantName) {
    int quote = pos;
    int start = ++pos;
    out.write('"');
    int contentStart = out.length();
    boolean escaped = false;
    int run = pos;
    while (true) {
      if (pos == end) {
        throw MalformedJsonException.at(quote, "the string is not terminated");
      }
      int b = in[pos] & 0xFF;
      if (b >= 0x20 && b < 0x80 && b != '"' && b != '\\') {
        pos++;
      } else if (b == '"') {
        break;
      } else if (b == '\\') {
        out.write(in, run, pos - run);
        parseEscape();
        escaped = true;
        run = pos;
      } else if (b < 0x20) {
        throw MalformedJsonException.at(pos, "a control character in a string must be escaped");
      } else {
        pos = Utf8.skipSequence(in, pos, end);
      }
    }
    out.write(in, run, pos - run);
    pos++;
    out.write('"');
    if (!wantName) {
      return null;
    }
    return escaped
        ? Utf8.unescapeCanonical(out.buffer(), contentStart, out.length() - 1)
        : new String(in, start, pos - 1 - start, UTF_8);
  }

  private void parseEscape() {
    int escape = pos;
    if (pos + 1 >= end) {
      throw MalformedJsonException.at(escape, "the string ends inside an escape sequence");
    }
    byte e = in[pos + 1];
    pos += 2;
    switch (e) {
      case '"':
      case '\\':
      case '/':
        out.writeStringCodePoint(e);
        return;
      case 'b':
        out.writeStringCodePoint('\b');
        return;
      case 'f':
        out.writeStringCodePoint('\f');
        return;
      case 'n':
        out.writeStringCodePoint('\n');
        return;
      case 'r':
        out.writeStringCodePoint('\r');
        return;
      case 't':
        out.writeStringCodePoint('\t');
        return;
      case 'u':
        break;
      default:
        throw MalformedJsonException.at(escape, "the string contains an invalid escape sequence");
    }
    int unit = hex4();
    if (Character.isLowSurrogate((char) unit)) {
      throw MalformedJsonException.at(escape, "the string contains an unpaired surrogate escape");
    }
    if (Character.isHighSurrogate((char) unit)) {
      if (pos + 1 >= end || in[pos] != '\\' || in[pos + 1] != 'u') {
        throw MalformedJsonException.at(escape, "the string contains an unpaired surrogate escape");
      }
      pos += 2;
      int low = hex4();
      if (!Character.isLowSurrogate((char) low)) {
        throw MalformedJsonException.at(escape, "the string contains an unpaired surrogate escape");
      }
      unit = Character.toCodePoint((char) unit, (char) low);
    }
    out.writeStringCodePoint(unit);
  }

  private int hex4() {
    if (end - pos < 4) {
      throw MalformedJsonException.at(pos, "a \\u escape needs four hexadecimal digits");
    }
    int value = 0;
    for (int i = 0; i < 4; i++) {
      int d = Character.digit(in[pos + i], 16);
      if (d < 0) {
        throw MalformedJsonException.at(pos, "a \\u escape needs four hexadecimal digits");
      }
      value = value << 4 | d;
    }
    pos += 4;
    return value;
  }

  private void literal(byte[] word) {
    if (end - pos < word.length
        || !Arrays.equals(in, pos, pos + word.length, word, 0, word.length)) {
      throw MalformedJsonException.at(pos, "a JSON value was expected");
    }
    out.write(word, 0, word.length);
    pos += word.length;
  }

  private void skipWhitespace() {
    while (pos < end) {
      byte b = in[pos];
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        return;
      }
      pos++;
    }
  }
}
