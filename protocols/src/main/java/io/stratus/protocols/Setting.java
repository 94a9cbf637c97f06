package io.stratus.protocols;

import io.stratus.InvalidConfigurationException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * One setting of a database, described once: its property key, the name of its builder method,
 * its type and default, the protocols it applies to, what values it accepts and what it does. The
 * settings are the constants of {@link Settings}; the configuration builder, the properties
 * parser, the Spring binding and the documentation's table all read them.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <T> the type of the setting's value
 */
public final class Setting<T> {
  private final String key;
  private final String name;
  private final String label;
  private final Type<T> type;
  private final Function<Values, T> defaults;
  private final @Nullable T fixedDefault;
  private final String defaultText;

  /** The option a protocol must accept for the setting to apply to it; null: every protocol. */
  private final @Nullable ProtocolOption option;

  private final Check<T> check;
  private final String doc;

  private Setting(
      String key,
      String name,
      String label,
      Type<T> type,
      Function<Values, T> defaults,
      @Nullable T fixedDefault,
      String defaultText,
      @Nullable ProtocolOption option,
      Check<T> check,
      String doc) {
    this.key = key;
    this.name = name;
    this.label = label;
    this.type = type;
    this.defaults = defaults;
    this.fixedDefault = fixedDefault;
    this.defaultText = defaultText;
    this.option = option;
    this.check = check;
    this.doc = doc;
  }

  /**
   * A setting whose default is {@code value}; it applies to the protocols with {@code option}, or
   * to every protocol when {@code option} is null.
   */
  static <T> Setting<T> of(
      String key,
      String name,
      String label,
      Type<T> type,
      T value,
      @Nullable ProtocolOption option,
      Check<T> check,
      String doc) {
    Objects.requireNonNull(value, "value");
    return new Setting<>(
        key, name, label, type, v -> value, value, type.format(value), option, check, doc);
  }

  /**
   * A setting whose default follows from other settings ({@code defaults}), described by {@code
   * defaultText}; null defaults (a required setting) are refused where the value is needed.
   */
  static <T> Setting<T> derived(
      String key,
      String name,
      String label,
      Type<T> type,
      Function<Values, T> defaults,
      String defaultText,
      @Nullable ProtocolOption option,
      Check<T> check,
      String doc) {
    return new Setting<>(key, name, label, type, defaults, null, defaultText, option, check, doc);
  }

  /** The property key, e.g. {@code stratus.checkpoint.lock-timeout}. */
  public String key() {
    return key;
  }

  /** The name of the configuration builder's method that sets it, e.g. {@code ttl}. */
  public String name() {
    return name;
  }

  /** What error messages call it, e.g. {@code checkpoint lock timeout}. */
  public String label() {
    return label;
  }

  /** How values are written in properties. */
  public Type<T> type() {
    return type;
  }

  /**
   * The default, or null when it follows from other settings (the atomic timeout from the lock
   * timeout, monotonic reads from the protocol) or the setting is required ({@link
   * #defaultText()} says which).
   */
  public @Nullable T defaultValue() {
    return fixedDefault;
  }

  /** The default as the documentation writes it. */
  public String defaultText() {
    return defaultText;
  }

  /** The default given the other settings in {@code values}; null for a required setting. */
  public @Nullable T defaultIn(Values values) {
    return defaults.apply(values);
  }

  /** What values it accepts, e.g. {@code positive, at most 365 days}. */
  public String accepts() {
    return check.text();
  }

  /** What it does, in one line. */
  public String doc() {
    return doc;
  }

  /** Whether the setting applies to the protocol {@code kind}. */
  public boolean appliesTo(ProtocolKind kind) {
    return option == null || kind.accepts(option);
  }

  /** The protocols it applies to. */
  public Set<ProtocolKind> protocols() {
    EnumSet<ProtocolKind> s = EnumSet.noneOf(ProtocolKind.class);
    for (ProtocolKind k : ProtocolKind.values()) {
      if (appliesTo(k)) {
        s.add(k);
      }
    }
    return s;
  }

  /**
   * {@code value} if the setting accepts it.
   *
   * @throws InvalidConfigurationException naming the setting and what it accepts
   */
  public T check(T value) {
    if (value == null) {
      throw new InvalidConfigurationException(name + " must not be null");
    }
    if (!check.accepts().test(value)) {
      throw new InvalidConfigurationException(
          "the " + label + " must be " + check.text() + ", got " + type.show(value));
    }
    return value;
  }

  /**
   * The value written {@code text} in properties, checked.
   *
   * @throws InvalidConfigurationException when it does not parse or is not accepted
   */
  public T parse(String text) {
    return check(type.parse(text.trim()));
  }

  @Override
  public String toString() {
    return key;
  }

  /**
   * What values of a setting are accepted.
   *
   * @param <T> the value type
   * @param text what the documentation and error messages say, e.g. {@code positive}
   * @param accepts the test
   */
  record Check<T>(String text, Predicate<T> accepts) {}

  /**
   * The values of the settings of one configuration, as rules between settings see them.
   * Implemented by the configuration builder (which knows which values the user set) and by the
   * protocols' settings records (which check their own rules when made).
   */
  public interface Values {
    /**
     * The value of {@code setting}: the one set, or its default.
     *
     * @throws InvalidConfigurationException the setting is required and was not set
     */
    <T> T get(Setting<T> setting);

    /** Whether the user set {@code setting} (rather than leaving its default). */
    boolean isSet(Setting<?> setting);

    /**
     * {@code setting} as an error message names it: {@code checkpointLockTimeout(PT2S)} for a
     * value the user set, {@code the checkpoint lock timeout (PT30S, the default)} for a default.
     */
    default String describe(Setting<?> setting) {
      Object v = get(setting);
      return isSet(setting)
          ? setting.name() + "(" + v + ")"
          : "the " + setting.label() + " (" + v + ", the default)";
    }
  }

  /**
   * The values {@code given} (they count as set), and the defaults of the others.
   *
   * @param given values by setting, each of its setting's type
   */
  public static Values given(Map<Setting<?>, ?> given) {
    Map<Setting<?>, Object> copy = new HashMap<>(given);
    return new Values() {
      @Override
      @SuppressWarnings("unchecked") // each value was put for its own setting
      public <T> T get(Setting<T> setting) {
        Object v = copy.get(setting);
        if (v != null) {
          return (T) v;
        }
        T d = setting.defaultIn(this);
        if (d == null) {
          throw new InvalidConfigurationException(
              "the " + setting.label() + " is required: set " + setting.name());
        }
        return d;
      }

      @Override
      public boolean isSet(Setting<?> setting) {
        return copy.containsKey(setting);
      }
    };
  }

  /**
   * A rule between settings, e.g. that the propagation period is shorter than the lock timeout.
   *
   * @param settings the settings it involves
   * @param holds whether it holds
   * @param why the message when it does not: naming the settings with {@link Values#describe},
   *     what to do about it
   */
  public record Rule(
      List<Setting<?>> settings, Predicate<Values> holds, Function<Values, String> why) {

    /** How many of the settings it involves the user left at their defaults. */
    int defaultsIn(Values values) {
      int n = 0;
      for (Setting<?> s : settings) {
        if (!values.isSet(s)) {
          n++;
        }
      }
      return n;
    }

    /**
     * Checks {@code rules} against {@code values}. Of the rules broken, the message is the one
     * with the fewest settings left at their defaults: the user's own setting is what to change,
     * not a default they never touched.
     *
     * @throws InvalidConfigurationException a rule is broken
     */
    public static void check(List<Rule> rules, Values values) {
      Rule worst = null;
      for (Rule r : rules) {
        if (!r.holds().test(values)
            && (worst == null || r.defaultsIn(values) < worst.defaultsIn(values))) {
          worst = r;
        }
      }
      if (worst != null) {
        throw new InvalidConfigurationException(worst.why().apply(values));
      }
    }
  }

  /**
   * How values of one type are written in properties: parsed, and formatted for the
   * documentation.
   *
   * @param <T> the value type
   */
  public static final class Type<T> {
    private static final Pattern SIMPLE_DURATION =
        Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)", Pattern.CASE_INSENSITIVE);
    private static final Pattern SIZE =
        Pattern.compile("(\\d+)\\s*([kmg]?)b?", Pattern.CASE_INSENSITIVE);

    /** {@code 500ms}, {@code 45s}, {@code 2m}, {@code 1h}, {@code 1d} or ISO-8601 ({@code PT45S}). */
    public static final Type<Duration> DURATION =
        new Type<>("a duration", Type::duration, Type::formatDuration, Duration::toString);

    /** Bytes, or with {@code k}, {@code m}, {@code g} (powers of 1,024). */
    public static final Type<Long> BYTES =
        new Type<>("a size", Type::size, Type::formatSize, String::valueOf);

    /** {@link #BYTES} that fit an int. */
    public static final Type<Integer> INT_BYTES =
        new Type<>("a size", v -> intOf(size(v), v), b -> formatSize((long) b), String::valueOf);

    /** A whole number that fits an int. */
    public static final Type<Integer> INT =
        new Type<>("a whole number", v -> intOf(number(v), v), String::valueOf, String::valueOf);

    /** A whole number. */
    public static final Type<Long> LONG =
        new Type<>("a whole number", Type::number, String::valueOf, String::valueOf);

    /** {@code true} or {@code false}. */
    public static final Type<Boolean> BOOLEAN =
        new Type<>("true or false", Type::bool, String::valueOf, String::valueOf);

    /** Text. */
    public static final Type<String> TEXT = new Type<>("text", v -> v, v -> v, Type::quote);

    private final String syntax;
    private final Function<String, T> parser;
    private final Function<T, String> formatter;
    private final Function<T, String> shower;

    private Type(
        String syntax,
        Function<String, T> parser,
        Function<T, String> formatter,
        Function<T, String> shower) {
      this.syntax = syntax;
      this.parser = parser;
      this.formatter = formatter;
      this.shower = shower;
    }

    /** One of the constants of {@code type}, written in any case, '-' for '_'. */
    public static <E extends Enum<E>> Type<E> of(Class<E> type) {
      StringBuilder names = new StringBuilder();
      for (E e : type.getEnumConstants()) {
        names.append(names.length() == 0 ? "" : ", ").append(e.name().toLowerCase(Locale.ROOT));
      }
      String known = names.toString();
      return new Type<>(
          known,
          v -> {
            for (E e : type.getEnumConstants()) {
              if (e.name().equalsIgnoreCase(v.replace('-', '_'))) {
                return e;
              }
            }
            throw new InvalidConfigurationException("not one of " + known + ": " + quote(v));
          },
          e -> e.name().toLowerCase(Locale.ROOT),
          Enum::name);
    }

    /** What values look like, e.g. {@code a duration}. */
    public String syntax() {
      return syntax;
    }

    /**
     * The value {@code text} stands for.
     *
     * @throws InvalidConfigurationException it does not parse
     */
    public T parse(String text) {
      return parser.apply(text);
    }

    /** {@code value} as properties write it, e.g. {@code 45s}. */
    public String format(T value) {
      return formatter.apply(value);
    }

    /** {@code value} as error messages show it. */
    String show(T value) {
      return shower.apply(value);
    }

    private static Duration duration(String v) {
      Matcher m = SIMPLE_DURATION.matcher(v);
      if (m.matches()) {
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2).toLowerCase(Locale.ROOT)) {
          case "ms" -> Duration.ofMillis(n);
          case "s" -> Duration.ofSeconds(n);
          case "m" -> Duration.ofMinutes(n);
          case "h" -> Duration.ofHours(n);
          default -> Duration.ofDays(n);
        };
      }
      try {
        return Duration.parse(v);
      } catch (DateTimeParseException e) {
        throw new InvalidConfigurationException(
            "not a duration: " + quote(v) + " (e.g. 500ms, 45s, 2m, PT45S)");
      }
    }

    private static String formatDuration(Duration d) {
      long ms = d.toMillis();
      if (ms != 0 && ms % 3_600_000 == 0) {
        return ms / 3_600_000 + "h";
      }
      if (ms != 0 && ms % 60_000 == 0 && ms >= 300_000) {
        return ms / 60_000 + "m";
      }
      if (ms % 1000 == 0) {
        return ms / 1000 + "s";
      }
      return ms + "ms";
    }

    private static long size(String v) {
      Matcher m = SIZE.matcher(v);
      if (!m.matches()) {
        throw new InvalidConfigurationException("not a size: " + quote(v) + " (e.g. 102400, 100k)");
      }
      long n = Long.parseLong(m.group(1));
      int shift =
          switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            default -> 0;
          };
      if (n > (Long.MAX_VALUE >> shift)) {
        throw new InvalidConfigurationException("too large: " + quote(v));
      }
      return n << shift;
    }

    private static String formatSize(long b) {
      for (String unit : new String[] {"g", "m", "k"}) {
        int shift = unit.equals("g") ? 30 : unit.equals("m") ? 20 : 10;
        if (b != 0 && b % (1L << shift) == 0) {
          return (b >> shift) + unit;
        }
      }
      return String.valueOf(b);
    }

    private static long number(String v) {
      try {
        return Long.parseLong(v);
      } catch (NumberFormatException e) {
        throw new InvalidConfigurationException("not a whole number: " + quote(v));
      }
    }

    private static int intOf(long n, String v) {
      if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
        throw new InvalidConfigurationException("too large: " + quote(v));
      }
      return (int) n;
    }

    private static boolean bool(String v) {
      if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
        return Boolean.parseBoolean(v);
      }
      throw new InvalidConfigurationException("not true or false: " + quote(v));
    }

    /** {@code v} in quotes, control characters escaped, cut at 100 characters. */
    static String quote(String v) {
      StringBuilder b = new StringBuilder("\"");
      int shown = Math.min(v.length(), 100);
      for (int i = 0; i < shown; i++) {
        char c = v.charAt(i);
        if (c < 0x20 || c == 0x7F) {
          b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
        } else {
          b.append(c);
        }
      }
      return b.append(v.length() > shown ? "\"..." : "\"").toString();
    }
  }
}
