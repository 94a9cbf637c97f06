package io.stratus.example.bookstore;

import io.stratus.CommitStateUnknownException;
import io.stratus.StratusException;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.servlet.ModelAndView;

/**
 * The HTML pages' failures as friendly pages (the {@code error} template, which also shows the
 * errors Spring Boot handles itself, such as an unknown address):
 *
 * <ul>
 *   <li>a book or order that does not exist: 404;
 *   <li>a book sold out when it was added to the cart, or a quantity the shop does not take: 409
 *       and 400, nothing changed;
 *   <li>a transient failure of the cloud that outlasted {@code db.run}'s retries: 503 with
 *       Retry-After, nothing changed, try again;
 *   <li>a commit whose outcome is unknown: 500 saying so, since ordering again could order twice.
 * </ul>
 */
@ControllerAdvice(assignableTypes = ShopController.class)
public class ShopErrors {

  @ExceptionHandler(ShopException.NotFound.class)
  ModelAndView notFound(ShopException.NotFound e) {
    return page(HttpStatus.NOT_FOUND, "We could not find that", capitalized(e.getMessage()) + ".");
  }

  @ExceptionHandler(ShopException.OutOfStock.class)
  ModelAndView outOfStock(ShopException.OutOfStock e) {
    return page(
        HttpStatus.CONFLICT, "Sold out", "Sorry: " + e.getMessage() + ". Your cart is unchanged.");
  }

  @ExceptionHandler(ShopException.Invalid.class)
  ModelAndView invalid(ShopException.Invalid e) {
    return page(HttpStatus.BAD_REQUEST, "We could not take that", e.getMessage());
  }

  @ExceptionHandler(CommitStateUnknownException.class)
  ModelAndView unknown(CommitStateUnknownException e) {
    return page(
        HttpStatus.INTERNAL_SERVER_ERROR,
        "We could not confirm that",
        "The shop lost touch with its database while saving your request, so it may or may not"
            + " have been saved. Look at your orders and your cart before you try again.");
  }

  @ExceptionHandler(StratusException.class)
  ModelAndView failed(StratusException e, HttpServletResponse response) {
    if (e.isRetryable()) {
      response.setHeader("Retry-After", "1");
      return page(
          HttpStatus.SERVICE_UNAVAILABLE,
          "The shop is busy",
          "Nothing was changed. Please try again in a moment.");
    }
    return page(
        HttpStatus.INTERNAL_SERVER_ERROR,
        "Something went wrong",
        "The shop's database refused the request: " + e.getMessage());
  }

  private static ModelAndView page(HttpStatus status, String title, String message) {
    return new ModelAndView(
        "error", Map.of("status", status.value(), "error", title, "message", message), status);
  }

  private static String capitalized(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }
}
