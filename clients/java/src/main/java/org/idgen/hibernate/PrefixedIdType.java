package org.idgen.hibernate;

import org.idgen.PrefixedId;

/** The Hibernate type of {@link PrefixedId}, applied to every attribute of that class by {@link IdgenTypeContributor}. */
public final class PrefixedIdType extends IdgenUserType<PrefixedId>
{
	/** The type, as Hibernate instantiates it. */
	public PrefixedIdType()
	{
		super(PrefixedId.class, PrefixedId.TYPE, PrefixedId::parse);
	}
}
