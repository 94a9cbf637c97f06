package io.stratus.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.module.Configuration;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.module.ResolutionException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library modules' descriptors resolve together on the module path, as an application that
 * uses the module path sees them. The tests of every module run on the class path, where
 * module-info files are ignored, so this is where a wrong {@code requires} name, a package split
 * across two jars, a module cycle or a qualified export to a misspelt module would show.
 *
 * <p>It lives in the junit module because that module's test class path can hold every named
 * library module (the pom adds those it does not use as test dependencies).
 *
 * <p>ZooKeeper's two jars share packages, so the modules are resolved the way an application must
 * run the ZooKeeper adapter on the module path (docs/using.md): zookeeper-jute's classes inside the
 * {@code zookeeper} module, here as one merged jar.
 */
class LibraryModulesTest {
  /** The library modules that declare a module-info. */
  private static final Set<String> NAMED =
      Set.of(
          "io.stratus.api",
          "io.stratus.cloudapi",
          "io.stratus.testkit",
          "io.stratus.pagemanager",
          "io.stratus.btree",
          "io.stratus.protocols",
          "io.stratus.core",
          "io.stratus.codec.jackson",
          "io.stratus.codec.protobuf",
          "io.stratus.aws",
          "io.stratus.micrometer",
          "io.stratus.junit",
          "io.stratus.zookeeper",
          "io.stratus.spring.boot");

  /** How long a call to the in-JVM ZooKeeper server may take before the test fails. */
  private static final Duration NETWORK_TIMEOUT = Duration.ofSeconds(30);

  @TempDir static Path mergedJars;

  private static Map<String, ModuleReference> onClassPath;
  private static Map<String, ModuleReference> needed;
  private static ModuleLayer layer;

  @BeforeAll
  static void resolveTheLibraryModules() throws IOException {
    onClassPath = modulesOnClassPath();
    needed = closure(onClassPath);
    needed.put("zookeeper", juteInsideZooKeeper());
    ModuleFinder finder = finderOf(needed);
    Configuration configuration =
        ModuleLayer.boot().configuration().resolve(finder, ModuleFinder.of(), NAMED);
    // Defining the layer also fails when two modules in one class loader share a package.
    layer =
        ModuleLayer.boot()
            .defineModulesWithOneLoader(configuration, ClassLoader.getSystemClassLoader());
  }

  @Test
  void everyLibraryModuleDeclaresItsDescriptor() {
    Set<String> named =
        onClassPath.values().stream()
            .map(ModuleReference::descriptor)
            .filter(d -> d.name().startsWith("io.stratus.") && !d.isAutomatic())
            .map(ModuleDescriptor::name)
            .collect(Collectors.toCollection(TreeSet::new));
    assertThat(named).containsExactlyInAnyOrderElementsOf(NAMED);
  }

  @Test
  void theApiIsExportedToEveryone() {
    assertThat(module("io.stratus.api").isExported("io.stratus")).isTrue();
    assertThat(module("io.stratus.core").isExported("io.stratus.core")).isTrue();
    assertThat(module("io.stratus.core").isExported("io.stratus.core.query")).isTrue();
    for (String pkg :
        Set.of(
            "io.stratus.cloudapi",
            "io.stratus.cloudapi.crypto",
            "io.stratus.cloudapi.decorate",
            "io.stratus.cloudapi.inprocess",
            "io.stratus.cloudapi.time")) {
      assertThat(module("io.stratus.cloudapi").isExported(pkg)).as(pkg).isTrue();
    }
    assertThat(module("io.stratus.aws").isExported("io.stratus.aws")).isTrue();
    assertThat(module("io.stratus.zookeeper").isExported("io.stratus.zookeeper")).isTrue();
    assertThat(module("io.stratus.spring.boot").isExported("io.stratus.spring.boot")).isTrue();
  }

  @Test
  void zooKeeperAndItsJuteJarDoNotResolveAsTwoModules() {
    // Why the recipe is needed: were this to resolve, ZooKeeper would have stopped splitting
    // packages across its jars, and docs/using.md could drop the patch.
    Map<String, ModuleReference> asShipped = new HashMap<>(needed);
    asShipped.put("zookeeper", jar("zookeeper"));
    asShipped.put("zookeeper.jute", jar("zookeeper.jute"));
    assertThatThrownBy(
            () ->
                ModuleLayer.boot()
                    .configuration()
                    .resolve(
                        finderOf(asShipped), ModuleFinder.of(), Set.of("io.stratus.zookeeper")))
        .isInstanceOf(ResolutionException.class)
        .hasMessageContaining("org.apache.zookeeper.server.");
  }

  @Test
  void theZooKeeperAdapterRunsThroughTheModules() throws Exception {
    // The adapter's code reads ZooKeeper's data classes (Stat, ACL), which come from the jute
    // jar: a counter's increments pass through them, so this fails if the adapter cannot reach
    // them in the zookeeper module.
    ClassLoader loader = layer.findLoader("io.stratus.zookeeper");
    Class<?> configType = Class.forName("io.stratus.zookeeper.ZooKeeperConfig", true, loader);
    Class<?> builderType =
        Class.forName("io.stratus.zookeeper.ZooKeeperConfig$Builder", true, loader);
    Class<?> cloudType = Class.forName("io.stratus.zookeeper.ZooKeeperCloud", true, loader);
    Class<?> counterType = Class.forName("io.stratus.cloudapi.CounterService", true, loader);
    assertThat(Class.forName("org.apache.zookeeper.data.Stat", false, loader).getModule())
        .isSameAs(module("zookeeper"));
    // ZooKeeper logs through SLF4J, a named module the JVM resolves only when a module requires
    // it: an application using the adapter alone must get it too, or connecting fails.
    Configuration adapterAlone =
        ModuleLayer.boot()
            .configuration()
            .resolve(finderOf(needed), ModuleFinder.of(), Set.of("io.stratus.zookeeper"));
    assertThat(adapterAlone.findModule("org.slf4j"))
        .as("SLF4J beside the adapter alone")
        .isPresent();
    try (TestingServer server = new TestingServer(true)) {
      Object builder = call(configType, null, "builder", server.getConnectString());
      call(builderType, builder, "namespace", "modules");
      call(builderType, builder, "clock", Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
      call(builderType, builder, "maxClockSkew", Duration.ZERO);
      call(builderType, builder, "freshNamespaceRefusal", Duration.ZERO);
      Object cloud = call(cloudType, null, "connect", call(builderType, builder, "build"));
      try {
        Object counters = call(cloudType, cloud, "counters");
        assertThat(await(call(counterType, counters, "increment", "c/1"))).isEqualTo(1L);
        assertThat(await(call(counterType, counters, "increment", "c/1"))).isEqualTo(2L);
      } finally {
        call(cloudType, cloud, "close");
      }
    }
  }

  @Test
  void theAutoConfigurationBindsItsPropertiesThroughTheModules() throws Exception {
    // Spring's bean wrapper (an automatic module) reads the properties' getters, and the settings
    // table of io.stratus.protocols names them.
    ClassLoader loader = layer.findLoader("io.stratus.spring.boot");
    Class<?> propertiesType =
        Class.forName("io.stratus.spring.boot.StratusProperties", true, loader);
    Object properties = propertiesType.getConstructor().newInstance();
    call(propertiesType, properties, "setDatabaseUri", "db/modules");
    assertThat(call(propertiesType, properties, "databaseSettings"))
        .isEqualTo(Map.of("stratus.database-uri", "db/modules"));
  }

  @Test
  void internalsAreExportedOnlyToTheStratusModulesBuiltOnThem() {
    Module core = module("io.stratus.core");
    Module pageManager = module("io.stratus.pagemanager");
    Module btree = module("io.stratus.btree");
    Module protocols = module("io.stratus.protocols");
    Module application = getClass().getModule(); // an unnamed module, as an application's is

    assertThat(pageManager.isExported("io.stratus.pagemanager", core)).isTrue();
    assertThat(pageManager.isExported("io.stratus.pagemanager", application)).isFalse();
    assertThat(btree.isExported("io.stratus.btree", protocols)).isTrue();
    assertThat(btree.isExported("io.stratus.btree", application)).isFalse();
    for (String pkg : protocols.getPackages()) {
      if (!pkg.equals("io.stratus.protocols")) {
        assertThat(protocols.isExported(pkg)).as(pkg).isFalse();
      }
    }
  }

  @Test
  void theApplicationSurfaceLoadsThroughTheModules() throws ReflectiveOperationException {
    // Loading and initialising the classes links them across module boundaries: a type the
    // handle names from a module it does not read fails here.
    for (String type :
        Set.of(
            "io.stratus.core.Database",
            "io.stratus.core.DatabaseConfig",
            "io.stratus.cloudapi.inprocess.InProcessCloud",
            "io.stratus.codec.jackson.JacksonCodec",
            "io.stratus.junit.StratusExtension",
            "io.stratus.zookeeper.ZooKeeperCloud",
            "io.stratus.spring.boot.StratusAutoConfiguration")) {
      String moduleName = owner(type.substring(0, type.lastIndexOf('.')));
      Class<?> loaded = Class.forName(type, true, layer.findLoader(moduleName));
      assertThat(loaded.getModule().getLayer()).as(type).isSameAs(layer);
    }
  }

  private static String owner(String pkg) {
    return layer.modules().stream()
        .filter(m -> m.getPackages().contains(pkg))
        .map(Module::getName)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no module holds " + pkg));
  }

  /** Calls the public method {@code name} of {@code type} (taking as many arguments). */
  private static Object call(Class<?> type, Object target, String name, Object... args)
      throws ReflectiveOperationException {
    for (Method m : type.getMethods()) {
      if (m.getName().equals(name) && m.getParameterCount() == args.length) {
        try {
          return m.invoke(target, args);
        } catch (InvocationTargetException e) {
          throw new AssertionError(type.getName() + "." + name + " failed", e.getCause());
        }
      }
    }
    throw new AssertionError(type.getName() + " has no public " + name);
  }

  private static Object await(Object future) throws Exception {
    return ((CompletableFuture<?>) future).get(NETWORK_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
  }

  /**
   * The zookeeper module with zookeeper-jute's classes in it: the two jars merged into one, the
   * file a {@code --patch-module zookeeper=zookeeper-jute.jar} amounts to. Where both jars hold an
   * entry (the manifest, licence files) the zookeeper jar's is kept.
   */
  private static ModuleReference juteInsideZooKeeper() throws IOException {
    Path merged = mergedJars.resolve("zookeeper.jar"); // named so its module is "zookeeper"
    Set<String> written = new HashSet<>();
    try (OutputStream file = Files.newOutputStream(merged);
        ZipOutputStream out = new ZipOutputStream(file)) {
      for (String module : new String[] {"zookeeper", "zookeeper.jute"}) {
        try (ZipFile in = new ZipFile(Path.of(jar(module).location().orElseThrow()).toFile())) {
          for (Enumeration<? extends ZipEntry> e = in.entries(); e.hasMoreElements(); ) {
            ZipEntry entry = e.nextElement();
            if (written.add(entry.getName())) {
              out.putNextEntry(new ZipEntry(entry.getName()));
              try (InputStream bytes = in.getInputStream(entry)) {
                bytes.transferTo(out);
              }
              out.closeEntry();
            }
          }
        }
      }
    }
    return ModuleFinder.of(merged)
        .find("zookeeper")
        .orElseThrow(() -> new AssertionError("the merged jar " + merged + " is no module"));
  }

  private static ModuleReference jar(String moduleName) {
    ModuleReference ref = onClassPath.get(moduleName);
    if (ref == null) {
      throw new AssertionError("no jar of module " + moduleName + " on the class path");
    }
    return ref;
  }

  private static Module module(String name) {
    return layer
        .findModule(name)
        .orElseThrow(() -> new AssertionError(name + " is not in the resolved layer"));
  }

  /**
   * Every module on the test class path: jars (named or automatic) and exploded modules, which a
   * reactor build hands over as target/classes. Entries that are no module at all (test classes
   * without a descriptor, jars whose name makes no module name) are left out.
   */
  private static Map<String, ModuleReference> modulesOnClassPath() {
    // Surefire may start the JVM through a manifest-only jar; it gives the real class path here.
    String classPath =
        Optional.ofNullable(System.getProperty("surefire.test.class.path"))
            .orElse(System.getProperty("java.class.path"));
    Map<String, ModuleReference> found = new HashMap<>();
    for (String entry : classPath.split(File.pathSeparator)) {
      Path path = Path.of(entry);
      if (Files.isDirectory(path) && !Files.exists(path.resolve("module-info.class"))) {
        continue;
      }
      try {
        for (ModuleReference ref : ModuleFinder.of(path).findAll()) {
          // A test-jar carries its module's Automatic-Module-Name; the module itself wins.
          found.merge(ref.descriptor().name(), ref, (a, b) -> a.descriptor().isAutomatic() ? b : a);
        }
      } catch (FindException notAModule) {
        // e.g. a jar whose file name gives no valid automatic module name
      }
    }
    return found;
  }

  /**
   * The library modules and what they require, transitively. Only these go on the module path:
   * once one automatic module is resolved every observable one is, and the test class path holds
   * automatic modules no library module needs.
   */
  private static Map<String, ModuleReference> closure(Map<String, ModuleReference> available) {
    Map<String, ModuleReference> needed = new HashMap<>();
    Deque<String> todo = new ArrayDeque<>(NAMED);
    while (!todo.isEmpty()) {
      String name = todo.pop();
      if (needed.containsKey(name) || ModuleLayer.boot().findModule(name).isPresent()) {
        continue;
      }
      ModuleReference ref = available.get(name);
      if (ref == null) {
        throw new AssertionError(
            "module " + name + " is required but no jar on the class path provides it");
      }
      needed.put(name, ref);
      for (ModuleDescriptor.Requires requires : ref.descriptor().requires()) {
        if (!requires.modifiers().contains(ModuleDescriptor.Requires.Modifier.STATIC)) {
          todo.push(requires.name());
        }
      }
    }
    return needed;
  }

  private static ModuleFinder finderOf(Map<String, ModuleReference> modules) {
    return new ModuleFinder() {
      @Override
      public Optional<ModuleReference> find(String name) {
        return Optional.ofNullable(modules.get(name));
      }

      @Override
      public Set<ModuleReference> findAll() {
        return Set.copyOf(modules.values());
      }
    };
  }
}
