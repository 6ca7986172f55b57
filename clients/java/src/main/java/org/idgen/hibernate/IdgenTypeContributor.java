package org.idgen.hibernate;

import org.hibernate.boot.model.TypeContributions;
import org.hibernate.boot.model.TypeContributor;
import org.hibernate.service.ServiceRegistry;

/**
 * Registers {@link UlidType}, {@link PrefixedIdType} and {@link TypeIdType} with Hibernate, so that
 * attributes of {@code Ulid}, {@code PrefixedId} and {@code TypeId} need no {@code @Type}. Found by
 * Hibernate through {@code META-INF/services/org.hibernate.boot.model.TypeContributor}.
 */
public final class IdgenTypeContributor implements TypeContributor
{
	/** The contributor, as the service loader instantiates it. */
	public IdgenTypeContributor()
	{
	}

	@Override
	public void contribute(TypeContributions contributions, ServiceRegistry serviceRegistry)
	{
		contributions.contributeType(new UlidType());
		contributions.contributeType(new PrefixedIdType());
		contributions.contributeType(new TypeIdType());
	}
}
