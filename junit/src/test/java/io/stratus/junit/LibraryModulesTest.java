package io.stratus.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.lang.module.Configuration;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The library modules' descriptors resolve together on the module path, as an application that
 * uses the module path sees them. The tests of every module run on the class path, where
 * module-info files are ignored, so this is where a wrong {@code requires} name, a package split
 * across two jars, a module cycle or a qualified export to a misspelt module would show.
 *
 * <p>It lives in the junit module because that module's test class path can hold every named
 * library module (the pom adds those it does not use as test dependencies). The ZooKeeper adapter
 * and the Spring Boot auto-configuration are automatic modules (see their poms) and so are not
 * resolved here.
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
          "io.stratus.junit");

  private static Map<String, ModuleReference> onClassPath;
  private static ModuleLayer layer;

  @BeforeAll
  static void resolveTheLibraryModules() {
    onClassPath = modulesOnClassPath();
    Map<String, ModuleReference> needed = closure(onClassPath);
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
            "io.stratus.junit.StratusExtension")) {
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
