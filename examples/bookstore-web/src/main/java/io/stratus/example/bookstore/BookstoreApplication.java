package io.stratus.example.bookstore;

import java.time.Clock;
import java.time.ZoneId;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A bookstore on Stratus: the {@link io.stratus.core.Database} bean comes from the Stratus
 * auto-configuration and the {@code stratus.*} properties of application.properties (the
 * in-process cloud by default; LocalStack or AWS, with ZooKeeper, by properties).
 */
@SpringBootApplication
public class BookstoreApplication {
  public static void main(String[] args) {
    SpringApplication.run(BookstoreApplication.class, args);
  }

  /** The time orders are placed at; pages show it in UTC, whatever the server's zone. */
  @Bean
  Clock clock() {
    return Clock.system(ZoneId.of("UTC"));
  }
}
