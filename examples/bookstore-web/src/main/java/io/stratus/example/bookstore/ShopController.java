package io.stratus.example.bookstore;

import jakarta.servlet.http.HttpServletResponse;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseCookie;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.CookieValue;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.view.RedirectView;

/**
 * The shop's HTML pages, rendered on the server (Thymeleaf templates in {@code templates/}).
 *
 * <p>Every form posts and is answered with 303 See Other to a page that shows the result
 * (post/redirect/get), so reloading a page never sends an order again; a checkout sent twice
 * finds the cart empty. The browser's cart is a random token in the {@code cart} cookie
 * (HttpOnly, SameSite=Lax, so other sites' forms cannot post with it); the cart itself lives in
 * the database, so any instance of the application serves any browser.
 *
 * <p>The GET pages produce {@code text/html} only: a client that accepts no HTML gets 406 before
 * anything runs. The JSON API is {@link ApiController}, on its own paths.
 */
@Controller
public class ShopController {
  static final String CART_COOKIE = "cart";
  private static final String HTML = MediaType.TEXT_HTML_VALUE;

  private final Bookstore store;
  private final SecureRandom random = new SecureRandom();

  public ShopController(Bookstore store) {
    this.store = store;
  }

  /** The catalogue: every book, a subject's books, or a search, a page at a time. */
  @GetMapping(value = "/", produces = HTML)
  public String catalogue(
      @RequestParam(name = "q", required = false) String q,
      @RequestParam(name = "subject", required = false) String subject,
      @RequestParam(name = "page", defaultValue = "1") int page,
      @CookieValue(name = CART_COOKIE, required = false) String cart,
      Model model) {
    Views.CataloguePage books;
    String heading;
    if (q != null && !q.isBlank()) {
      books = store.search(q, page);
      heading = "Books starting with “" + q.strip() + "”";
    } else if (subject != null && Schema.SUBJECTS.contains(subject)) {
      books = store.subject(subject, page);
      heading = null; // the template names the subject
    } else {
      books = store.catalogue(page);
      heading = "All books";
      subject = null;
    }
    model.addAttribute("books", books);
    model.addAttribute("heading", heading);
    model.addAttribute("q", q == null ? "" : q.strip());
    model.addAttribute("subject", subject);
    model.addAttribute("subjects", Schema.SUBJECTS);
    return page(model, cart, "catalogue");
  }

  /** A book's page. */
  @GetMapping(value = "/items/{id}", produces = HTML)
  public String product(
      @PathVariable("id") long id,
      @CookieValue(name = CART_COOKIE, required = false) String cart,
      Model model) {
    Views.Product p = store.product(id);
    model.addAttribute("product", p);
    int most = Math.min(ShoppingCart.MAX_QUANTITY, Math.max(0, p.item().stock()));
    model.addAttribute("quantities", IntStream.rangeClosed(1, most).boxed().toList());
    return page(model, cart, "product");
  }

  /** Adds copies of a book to the cart (creating the cart and its cookie), then shows the cart. */
  @PostMapping("/cart")
  public ModelAndView addToCart(
      @RequestParam("itemId") long itemId,
      @RequestParam(name = "quantity", defaultValue = "1") int quantity,
      @CookieValue(name = CART_COOKIE, required = false) String cart,
      HttpServletResponse response) {
    String token = valid(cart) ? cart : newToken();
    store.addToCart(token, itemId, quantity);
    if (!token.equals(cart)) {
      response.addHeader(HttpHeaders.SET_COOKIE, cookie(token).toString());
    }
    return seeOther("/cart?added=" + itemId);
  }

  /** Changes how many copies of a book the cart holds (0 removes it), then shows the cart. */
  @PostMapping("/cart/{itemId}")
  public ModelAndView setQuantity(
      @PathVariable("itemId") long itemId,
      @RequestParam("quantity") int quantity,
      @CookieValue(name = CART_COOKIE, required = false) String cart) {
    if (valid(cart)) {
      store.setQuantity(cart, itemId, quantity);
    }
    return seeOther("/cart");
  }

  /** The cart, with a notice after a checkout that found too few copies left. */
  @GetMapping(value = "/cart", produces = HTML)
  public String cart(
      @RequestParam(name = "soldout", required = false) String soldOut,
      @RequestParam(name = "added", required = false) Long added,
      @CookieValue(name = CART_COOKIE, required = false) String cart,
      Model model) {
    model.addAttribute("soldOut", soldOut != null);
    model.addAttribute("added", added == null ? null : store.item(added));
    return page(model, cart, "cart");
  }

  /** The checkout form, filled in with what this browser's customer gave last time. */
  @GetMapping(value = "/checkout", produces = HTML)
  public ModelAndView checkoutForm(
      @CookieValue(name = CART_COOKIE, required = false) String cart, Model model) {
    if (!valid(cart) || store.cart(cart).rows().isEmpty()) {
      return seeOther("/cart");
    }
    CheckoutForm form = store.customerOf(cart).map(CheckoutForm::of).orElse(CheckoutForm.blank());
    return checkoutPage(model, cart, form, Map.of());
  }

  /**
   * Places the order: on success 303 to its confirmation; a form with problems is shown again
   * with them (422); too few copies send the browser back to the cart, which says which.
   */
  @PostMapping("/checkout")
  public ModelAndView checkout(
      @ModelAttribute CheckoutForm form,
      @CookieValue(name = CART_COOKIE, required = false) String cart,
      Model model) {
    if (!valid(cart)) {
      return seeOther("/cart");
    }
    try {
      PlacedOrder placed = store.checkout(cart, form);
      return seeOther("/orders/" + placed.order().id() + "?placed");
    } catch (ShopException.Invalid e) {
      // Shown again to be corrected; a card number is never sent back to the browser.
      ModelAndView again = checkoutPage(model, cart, form.withoutCardNumber(), e.problems());
      again.setStatus(HttpStatus.UNPROCESSABLE_ENTITY);
      return again;
    } catch (ShopException.OutOfStock e) {
      return seeOther("/cart?soldout");
    } catch (ShopException.EmptyCart e) {
      return seeOther("/cart");
    }
  }

  /** This browser's orders, newest first. */
  @GetMapping(value = "/orders", produces = HTML)
  public String orders(
      @CookieValue(name = CART_COOKIE, required = false) String cart, Model model) {
    long customer = customer(cart);
    model.addAttribute("orders", store.ordersOf(customer));
    return page(model, cart, "orders");
  }

  /** One of this browser's orders; {@code placed} right after the checkout. */
  @GetMapping(value = "/orders/{id}", produces = HTML)
  public String order(
      @PathVariable("id") long id,
      @RequestParam(name = "placed", required = false) String placed,
      @CookieValue(name = CART_COOKIE, required = false) String cart,
      Model model) {
    PlacedOrder o = store.order(id);
    long customer = customer(cart);
    if (customer == 0 || o.order().customerId() != customer) {
      // Order ids are sequential: only the browser that placed an order sees it.
      throw new ShopException.NotFound("order " + id);
    }
    model.addAttribute("placed", o);
    model.addAttribute("justPlaced", placed != null);
    return page(model, cart, "order");
  }

  /** Browsers that ask for the old name get the SVG icon. */
  @GetMapping("/favicon.ico")
  public ResponseEntity<Void> favicon() {
    return ResponseEntity.status(HttpStatus.MOVED_PERMANENTLY)
        .location(URI.create("/favicon.svg"))
        .build();
  }

  private ModelAndView checkoutPage(
      Model model, String cart, CheckoutForm form, Map<String, String> problems) {
    model.addAttribute("form", form);
    model.addAttribute("problems", problems);
    model.addAttribute("shipTypes", CheckoutForm.SHIP_TYPES);
    model.addAttribute("cardTypes", CheckoutForm.CARD_TYPES);
    model.addAttribute("countries", CheckoutForm.COUNTRIES);
    return new ModelAndView(page(model, cart, "checkout"), model.asMap());
  }

  /** Adds the cart (for the header and the cart page) and names the template. */
  private String page(Model model, String cart, String template) {
    model.addAttribute("cart", valid(cart) ? store.cart(cart) : emptyCart());
    return template;
  }

  private long customer(String cart) {
    return valid(cart) ? store.customerOf(cart).map(Customer::id).orElse(0L) : 0;
  }

  private static Views.Cart emptyCart() {
    return new Views.Cart(List.of(), Totals.of(0, 0));
  }

  /** 303 See Other: the browser gets {@code path} (of this application) with a GET. */
  static ModelAndView seeOther(String path) {
    RedirectView view = new RedirectView(path, true);
    view.setStatusCode(HttpStatus.SEE_OTHER);
    view.setExposeModelAttributes(false);
    return new ModelAndView(view);
  }

  private String newToken() {
    byte[] b = new byte[16];
    random.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  /** A token this application made: anything else is ignored, as if there were no cart. */
  private static boolean valid(String token) {
    return token != null && token.matches("[0-9a-f]{32}");
  }

  private static ResponseCookie cookie(String token) {
    return ResponseCookie.from(CART_COOKIE, token)
        .path("/")
        .httpOnly(true)
        .sameSite("Lax")
        .maxAge(Duration.ofDays(30))
        .build();
  }
}
