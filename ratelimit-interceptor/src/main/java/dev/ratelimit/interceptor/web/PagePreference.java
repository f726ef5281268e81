package dev.ratelimit.interceptor.web;

import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.http.MediaType;
import org.springframework.util.InvalidMimeTypeException;
import org.springframework.util.MimeTypeUtils;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.accept.ContentNegotiationManager;
import org.springframework.web.context.request.ServletWebRequest;

/**
 * Whether a refused client would rather read an HTML page than the JSON body, by Spring MVC's content
 * negotiation over the two: the media types the app's {@link ContentNegotiationManager} reads from the
 * request ({@code Accept}), ranked by quality, then specificity, then their order, as a handler producing
 * both would choose; a type of quality 0 is not acceptable. A browser
 * ({@code text/html,...,*}{@code /*;q=0.8}) gets the page; {@code *}{@code /*}, no {@code Accept},
 * {@code application/json}, and an {@code Accept} Spring cannot read or rank (more than 50 types) get the body.
 */
final class PagePreference {

    private final Supplier<ContentNegotiationManager> negotiation;

    /** @param negotiation the app's content negotiation, asked at the first refusal (it is built after the limiter) */
    PagePreference(Supplier<ContentNegotiationManager> negotiation) {
        this.negotiation = SingletonSupplier.of(negotiation);
    }

    boolean prefersPage(HttpServletRequest request, MediaType body) {
        List<MediaType> requested;
        try {
            requested = negotiation.get().resolveMediaTypes(new ServletWebRequest(request));
        } catch (HttpMediaTypeNotAcceptableException e) {
            return false;
        }
        // The body first: of two types a request accepts alike (as */* does), the first produced wins.
        List<MediaType> producible = List.of(body, MediaType.TEXT_HTML);
        List<MediaType> compatible = new ArrayList<>();
        for (MediaType accepted : requested) {
            for (MediaType produced : producible) {
                if (accepted.getQualityValue() > 0 && accepted.isCompatibleWith(produced)) {
                    compatible.add(produced.copyQualityValue(accepted));
                }
            }
        }
        if (compatible.isEmpty()) {
            return false;
        }
        try {
            MimeTypeUtils.sortBySpecificity(compatible);
        } catch (InvalidMimeTypeException tooMany) {
            return false;
        }
        return MediaType.TEXT_HTML.equalsTypeAndSubtype(compatible.get(0));
    }
}
