package org.idgen.hibernate;

import org.idgen.Ulid;

/** The Hibernate type of {@link Ulid}, applied to every attribute of that class by {@link IdgenTypeContributor}. */
public final class UlidType extends IdgenUserType<Ulid>
{
	/** The type, as Hibernate instantiates it. */
	public UlidType()
	{
		super(Ulid.class, Ulid.TYPE, Ulid::parse);
	}
}
