package io.stratus.bench.tpcw.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict test-only JSON parser (RFC 8259) so the tests can check that results.json is valid
 * JSON and read values back, without a JSON library on the classpath. Objects become
 * LinkedHashMaps (member order kept), arrays Lists, numbers Doubles, null null. Anything invalid
 * (trailing commas, unescaped control characters, bad escapes, trailing garbage) throws.
 */
final class MiniJson {
  private final String text;
  private int pos;

  private MiniJson(String text) {
    this.text = text;
  }

  static Object parse(String text) {
    MiniJson p = new MiniJson(text);
    p.skipWhitespace();
    Object value = p.value();
    p.skipWhitespace();
    if (p.pos != text.length()) {
      throw p.error("trailing characters");
    }
    return value;
  }

  private Object value() {
    if (pos >= text.length()) {
      throw error("unexpected end");
    }
    char c = text.charAt(pos);
    return switch (c) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> number();
    };
  }

  private Map<String, Object> object() {
    Map<String, Object> map = new LinkedHashMap<>();
    expect('{');
    skipWhitespace();
    if (peek() == '}') {
      pos++;
      return map;
    }
    while (true) {
      skipWhitespace();
      String key = string();
      skipWhitespace();
      expect(':');
      skipWhitespace();
      if (map.containsKey(key)) {
        throw error("duplicate key " + key);
      }
      map.put(key, value());
      skipWhitespace();
      char c = next();
      if (c == '}') {
        return map;
      }
      if (c != ',') {
        throw error("expected , or }");
      }
    }
  }

  private List<Object> array() {
    List<Object> list = new ArrayList<>();
    expect('[');
    skipWhitespace();
    if (peek() == ']') {
      pos++;
      return list;
    }
    while (true) {
      skipWhitespace();
      list.add(value());
      skipWhitespace();
      char c = next();
      if (c == ']') {
        return list;
      }
      if (c != ',') {
        throw error("expected , or ]");
      }
    }
  }

  private String string() {
    expect('"');
    StringBuilder b = new StringBuilder();
    while (true) {
      char c = next();
      if (c == '"') {
        return b.toString();
      }
      if (c < 0x20) {
        throw error("unescaped control character");
      }
      if (c != '\\') {
        b.append(c);
        continue;
      }
      char e = next();
      switch (e) {
        case '"' -> b.append('"');
        case '\\' -> b.append('\\');
        case '/' -> b.append('/');
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'n' -> b.append('\n');
        case 'r' -> b.append('\r');
        case 't' -> b.append('\t');
        case 'u' -> {
          if (pos + 4 > text.length()) {
            throw error("short \\u escape");
          }
          b.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          pos += 4;
        }
        default -> throw error("bad escape \\" + e);
      }
    }
  }

  private Double number() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    if (peek() == '0') {
      pos++;
    } else if (Character.isDigit(peek())) {
      while (Character.isDigit(peek())) {
        pos++;
      }
    } else {
      throw error("bad value");
    }
    if (peek() == '.') {
      pos++;
      if (!Character.isDigit(peek())) {
        throw error("digit expected after .");
      }
      while (Character.isDigit(peek())) {
        pos++;
      }
    }
    if (peek() == 'e' || peek() == 'E') {
      pos++;
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      if (!Character.isDigit(peek())) {
        throw error("digit expected in exponent");
      }
      while (Character.isDigit(peek())) {
        pos++;
      }
    }
    return Double.parseDouble(text.substring(start, pos));
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, pos)) {
      throw error("bad literal");
    }
    pos += word.length();
    return value;
  }

  private void skipWhitespace() {
    while (pos < text.length() && " \t\r\n".indexOf(text.charAt(pos)) >= 0) {
      pos++;
    }
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private char next() {
    if (pos >= text.length()) {
      throw error("unexpected end");
    }
    return text.charAt(pos++);
  }

  private void expect(char c) {
    if (next() != c) {
      throw error("expected " + c);
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at offset " + pos);
  }
}
