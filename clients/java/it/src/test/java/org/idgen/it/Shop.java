package org.idgen.it;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.data.jpa.repository.config.EnableJpaRepositories;

/** The application under test: the entities and repositories of this package. */
@SpringBootApplication
@EnableJpaRepositories(considerNestedRepositories = true)
public class Shop
{
}
