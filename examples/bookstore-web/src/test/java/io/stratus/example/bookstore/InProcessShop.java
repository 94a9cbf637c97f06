package io.stratus.example.bookstore;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The application on a random port with its own application.properties (the in-process cloud,
 * snapshot isolation) and a catalogue of 24 books, 12 copies each. Test classes with this
 * annotation share one running application (Spring caches the context), so each uses books of
 * its own and checks changes, not absolute stock.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "bookstore.items=24",
      "bookstore.initial-stock=12",
      "bookstore.page-size=12",
      // Selenium warns that it has no DevTools (CDP) support for the system's newer Chromium;
      // the browser test uses WebDriver only, never CDP.
      "logging.level.org.openqa.selenium.devtools.CdpVersionFinder=error",
      "logging.level.org.openqa.selenium.chromium.ChromiumDriver=error"
    })
@interface InProcessShop {}
