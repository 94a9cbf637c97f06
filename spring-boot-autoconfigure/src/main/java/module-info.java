/**
 * Spring Boot auto-configuration: a {@link io.stratus.core.Database} bean from the {@code
 * stratus.*} properties, with a health indicator and metrics when Actuator and Micrometer are
 * present. The adapters, Micrometer and Actuator are optional: the beans that need one appear when
 * the application adds it.
 */
// Spring Boot, Spring and Micrometer name their modules in their manifests only.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.stratus.spring.boot {
  requires transitive io.stratus.core;
  requires transitive spring.beans;
  requires transitive spring.boot;
  requires transitive spring.boot.autoconfigure;
  requires transitive spring.context;
  requires transitive spring.core;
  requires org.slf4j;
  requires static transitive io.stratus.micrometer;
  requires static transitive spring.boot.actuator;
  requires static transitive spring.boot.actuator.autoconfigure;
  requires static io.stratus.aws;
  requires static io.stratus.zookeeper;

  exports io.stratus.spring.boot;
}
